export { MAX_LINK_EXPIRY_SECONDS } from './arguments';
export { createObjectStore, type ObjectStoreConfig, ObjectStoreConfigSchema } from './config';
export { contentDisposition } from './content-disposition';
export {
  type DownloadLinkClaims,
  type DownloadLinkVerification,
  signDownloadLink,
  verifyDownloadLink,
} from './download-link';
export { InvalidObjectKeyError, InvalidRangeError, ObjectNotFoundError, ObjectSizeMismatchError } from './errors';
export { createFsObjectStore, type FsObjectStoreOptions } from './fs-object-store';
export {
  assertObjectKey,
  isValidObjectKey,
  MAX_KEY_LENGTH,
  MAX_SEGMENT_LENGTH,
  objectKey,
  objectKeyProblem,
} from './keys';
export { imageObjectKey, type PreviewObjectSize, previewObjectKey, userObjectPrefix } from './layout';
export type {
  ByteRange,
  DownloadUrl,
  DownloadUrlOptions,
  ListedObject,
  ObjectInfo,
  ObjectStore,
  PutOptions,
  PutResult,
} from './object-store';
export { createS3ObjectStore, type S3ObjectStoreOptions } from './s3-object-store';
export { type ExpiringPayload, type SignedTokenVerification, signToken, verifyToken } from './signed-token';
