export { BOILERPLATE_FAMILIES, type BoilerplateFamily } from './boilerplate';
export { METADATA_CONFIDENCE, metadataTags } from './metadata-tags';
export { type Place, placeNear } from './place-near';
export { type PhotoMetadata, readPhotoMetadata } from './read-photo-metadata';
