export { describePixels } from './describe-pixels';
export { hashDistance, NEAR_DUPLICATE_DISTANCE, perceptualHash } from './perceptual-hash';
