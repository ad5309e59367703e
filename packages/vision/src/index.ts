export {
  ANALYSIS_EDGE_PX,
  analysisPixels,
  type DecodedImage,
  decodeImage,
  decodeUpright,
  type UprightPixels,
} from './decoded-image';
export * from './metadata';
export * from './models';
export * from './ocr';
export * from './pixels';
