export {
  createMetadataEmbedder,
  type EmbeddedFile,
  type MetadataEmbedder,
  MetadataEmbedError,
} from './metadata-embedder';
export { type BaseUrl, InvalidBaseUrlError, parseBaseUrl } from './rename-kit/base-url';
export { buildRenameKit, KEYWORD_SEPARATOR, KIT_DIR, type KitEntry } from './rename-kit/rename-kit';
export { type SeoFields, seoFieldsFor } from './seo-fields';
