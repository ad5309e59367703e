import type { ImageView } from '@renamer/contracts';

/** An image as the API lists it: ready, named `blue-sky.jpg`; `fields` change what a test needs. */
export const imageView = (fields: Partial<ImageView> = {}): ImageView => ({
  id: '00000000-0000-4000-8000-000000000001',
  batchId: '6f1c2a52-52a4-4d5f-9f0e-1d2c3b4a5f60',
  status: 'ready',
  originalFilename: 'IMG_0001.JPG',
  proposedFilename: 'blue-sky.jpg',
  filename: 'blue-sky.jpg',
  approved: false,
  approvedAt: null,
  checksum: 'a'.repeat(64),
  size: 1024,
  mimeType: 'image/jpeg',
  metadata: null,
  visionTags: [],
  altText: null,
  seo: null,
  safety: null,
  error: null,
  createdAt: '2026-11-27T10:00:00.000Z',
  updatedAt: '2026-11-27T10:00:00.000Z',
  ...fields,
});
