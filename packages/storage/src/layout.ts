import { objectKey } from './keys';

const USERS = 'users';

/** Every object of a user lives under this prefix, so deleting the account deletes the prefix. */
export const userObjectPrefix = (userId: string) => objectKey(USERS, userId);

/** Where an uploaded image's original bytes are stored. */
export const imageObjectKey = (userId: string, imageId: string) => objectKey(USERS, userId, 'images', imageId);

/** The sizes of a preview (contracts' `PreviewSize`; this package imports none of ours). */
export type PreviewObjectSize = 'small' | 'large';

/**
 * The image's preview (WebP) of that size, beside the original under the user's prefix: `<imageId>.webp` for
 * the small one, `<imageId>-large.webp` for the large one.
 */
export const previewObjectKey = (userId: string, imageId: string, size: PreviewObjectSize = 'small') =>
  objectKey(USERS, userId, 'previews', size === 'small' ? `${imageId}.webp` : `${imageId}-${size}.webp`);
