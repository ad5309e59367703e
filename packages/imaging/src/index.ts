export { type CameraDecodingOptions, closeCameraDecoding, configureCameraDecoding } from './camera-decoding';
export { declaredTypeAgrees } from './declared-type';
export { turnOffImageCache } from './image-cache';
export { readImageMetadata, UnsupportedImageError } from './image-metadata';
export {
  ALLOWED_IMAGE_TYPES,
  FORMAT_OF_TYPE,
  isImageMimeType,
  RAW_IMAGE_TYPES,
  SNIFF_HEAD_BYTES,
  type SniffedType,
  sniffImageType,
} from './image-types';
export { inspectImageSafety, type SafetyOptions, type SafetyRefusal, type SafetyResult } from './inspect-image-safety';
export { encodePreview, PREVIEW_CONTENT_TYPE, PREVIEW_EDGE_PX, PREVIEW_EDGES, previewOfFile } from './preview';
export { TRAILING_SLACK_BYTES } from './single-format-check';
export { type SpooledFile, type SpoolOptions, type SpoolResult, spoolToTempFile } from './spool-to-temp-file';
export { openUprightImage, type UprightImage, type UprightImageOptions } from './upright-image';
