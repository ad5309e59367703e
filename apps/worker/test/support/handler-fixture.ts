import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ProgressEvent } from '@renamer/contracts';
import { createDb, createRepositories, type NewBatch } from '@renamer/db';
import { emailHash } from '@renamer/domain';
import { createBatchTracker } from '@renamer/progress';
import { createIsolatedDatabase, testDir } from '@renamer/runtime/testing';
import { createObjectStore, imageObjectKey } from '@renamer/storage';
import { metadataStep } from '../../src/analysis/metadata-step';
import { createStepPipeline } from '../../src/analysis/step-pipeline';
import { type AnalyzeImageDeps, analyzeImageHandler } from '../../src/handlers/analyze-image';

export interface StoredFile {
  name: string;
  bytes: Buffer;
  type?: string;
}

/**
 * What the worker's handlers stand on, for real: a migrated database of the file's own (the reconciler
 * acts on every stale row it finds), a filesystem object store and the batch tracker. Progress events
 * are kept in `events` instead of going to Redis.
 */
export async function createHandlerFixture(name: string) {
  const database = await createIsolatedDatabase(process.env.DATABASE_URL!);
  const client = createDb(database.url, { max: 4 });
  const repositories = createRepositories(client.db);
  const workDir = testDir(name);
  const store = createObjectStore({
    driver: 'fs',
    dir: join(workDir, 'objects'),
    publicUrl: 'http://127.0.0.1',
    signingSecret: 'a-test-secret-of-at-least-32-characters',
  });
  await store.init();
  const events: ProgressEvent[] = [];
  const tracker = createBatchTracker({
    batches: repositories.batches,
    images: repositories.images,
    publish: async (event) => {
      events.push(event);
    },
    onPublishError: (error) => {
      throw error;
    },
  });

  /** A user's batch of these files, stored and committed as an upload leaves them (`queued`). */
  async function uploadBatch(files: readonly StoredFile[], batch: Omit<NewBatch, 'userId' | 'total'> = {}) {
    const subject = crypto.randomUUID();
    const user = await repositories.users.create({
      provider: 'https://issuer.test',
      providerSubject: subject,
      displayName: 'Worker test',
      emailHash: emailHash(`${subject}@worker.test`),
    });
    const created = await repositories.batches.create({ userId: user.id, total: files.length, ...batch });
    const rows = [];
    for (const file of files) {
      const id = crypto.randomUUID();
      const storageKey = imageObjectKey(user.id, id);
      await store.put(storageKey, Readable.from([file.bytes]), { size: file.bytes.length });
      rows.push({
        id,
        batchId: created.id,
        userId: user.id,
        originalFilename: file.name,
        checksum: createHash('sha256').update(file.bytes).digest('hex'),
        size: file.bytes.length,
        mimeType: file.type ?? 'image/png',
        storageKey,
      });
    }
    const images = await repositories.images.insertMany(rows);
    return { user, batch: created, images: rows.map((row) => images.find((image) => image.id === row.id)!) };
  }

  return {
    /** The file's own database, for a worker process started beside the fixture. */
    databaseUrl: database.url,
    client,
    repositories,
    store,
    tracker,
    events,
    workDir,
    uploadBatch,
    async close() {
      await client.close();
      await database.drop();
      await rm(workDir, { recursive: true, force: true });
    },
  };
}

export type HandlerFixture = Awaited<ReturnType<typeof createHandlerFixture>>;

/** The analysis handler on the fixture, reading the header alone (the steps have tests of their own). */
export function headerOnlyAnalyzeHandler(world: HandlerFixture, overrides: Partial<AnalyzeImageDeps> = {}) {
  return analyzeImageHandler({
    images: world.repositories.images,
    batches: world.repositories.batches,
    store: world.store,
    tracker: world.tracker,
    analyzer: createStepPipeline([metadataStep]),
    tempDir: world.workDir,
    refuseUnsafe: async () => false,
    ...overrides,
  });
}
