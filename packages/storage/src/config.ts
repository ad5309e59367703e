import { z } from 'zod';
import { createFsObjectStore } from './fs-object-store';
import type { ObjectStore } from './object-store';
import { createS3ObjectStore } from './s3-object-store';

const httpUrl = z.url({ protocol: /^https?$/ });

export const ObjectStoreConfigSchema = z.discriminatedUnion('driver', [
  z.object({
    driver: z.literal('fs'),
    dir: z.string().min(1).default('.data/objects'),
    publicUrl: httpUrl,
    signingSecret: z.string().min(32),
  }),
  z.object({
    driver: z.literal('s3'),
    endpoint: httpUrl,
    /** Where browsers reach the store, for presigned links; `endpoint` when absent. */
    publicEndpoint: httpUrl.optional(),
    region: z.string().min(1).default('us-east-1'),
    accessKey: z.string().min(1),
    secretKey: z.string().min(1),
    bucket: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid S3 bucket name'),
  }),
]);

/** What the apps build from STORAGE_DRIVER, STORAGE_DIR, S3_* (S3_PUBLIC_ENDPOINT included), PUBLIC_URL and SESSION_SECRET. */
export type ObjectStoreConfig = z.input<typeof ObjectStoreConfigSchema>;

/** Validates the config (throws a ZodError) and returns the driver's store; call `init()` on it at boot. */
export function createObjectStore(config: ObjectStoreConfig): ObjectStore {
  const parsed = ObjectStoreConfigSchema.parse(config);
  return parsed.driver === 'fs' ? createFsObjectStore(parsed) : createS3ObjectStore(parsed);
}
