export {
  type CopyTarget,
  copyExtension,
  copyTarget,
  STRIP_ALL_ARGS,
  STRIP_LOCATION_ARGS,
  type WebReadyCopy,
  withExtension,
} from './copies';
export {
  type CopyRequest,
  createMetadataEmbedder,
  type EmbeddedFile,
  type MetadataEmbedder,
  MetadataEmbedError,
} from './metadata-embedder';
export { type BaseUrl, InvalidBaseUrlError, parseBaseUrl } from './rename-kit/base-url';
export { buildRenameKit, KEYWORD_SEPARATOR, KIT_DIR, type KitEntry } from './rename-kit/rename-kit';
export { type SeoFields, seoFieldsFor } from './seo-fields';
