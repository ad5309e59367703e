export { ANALYSIS_EDGE_PX, type DecodedImage, decodeImage } from './decoded-image';
export * from './metadata';
export * from './models';
export * from './ocr';
export * from './pixels';
