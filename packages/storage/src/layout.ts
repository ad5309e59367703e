import { objectKey } from './keys';

const USERS = 'users';

/** Every object of a user lives under this prefix, so deleting the account deletes the prefix. */
export const userObjectPrefix = (userId: string) => objectKey(USERS, userId);

/** Where an uploaded image's original bytes are stored. */
export const imageObjectKey = (userId: string, imageId: string) => objectKey(USERS, userId, 'images', imageId);

/** The image's preview (WebP), beside the original under the user's prefix. */
export const previewObjectKey = (userId: string, imageId: string) =>
  objectKey(USERS, userId, 'previews', `${imageId}.webp`);
