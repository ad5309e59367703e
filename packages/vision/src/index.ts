export { ANALYSIS_EDGE_PX, type DecodedImage, decodeImage } from './decoded-image';
export * from './metadata';
