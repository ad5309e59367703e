export { describePixels } from './describe-pixels';
export { perceptualHash } from './perceptual-hash';
