import { randomUUID } from 'node:crypto';
import type { NewImage, SubscriptionState } from '../../src';
import { sha256Hex } from './database';

export function imageInput(batchId: string, userId: string, overrides: Partial<NewImage> = {}): NewImage {
  const id = randomUUID();
  return {
    batchId,
    userId,
    originalFilename: `IMG_${id.slice(0, 8)}.jpg`,
    checksum: sha256Hex(id),
    size: 1024,
    mimeType: 'image/jpeg',
    storageKey: `originals/${userId}/${id}`,
    ...overrides,
  };
}

/** An active Pro subscription of `userId`, as Stripe would report it. */
export function activeSubscription(userId: string): SubscriptionState {
  return {
    userId,
    stripeSubscriptionId: `sub_${randomUUID()}`,
    plan: 'pro',
    status: 'active',
    currentPeriodEnd: null,
    cancelAtPeriodEnd: false,
    stripeStateAt: new Date(),
  };
}
