import { fileURLToPath } from 'node:url';
import { startApiStack } from '@renamer/api/testing';
import { freePort, type SpawnedService, spawnService, waitForStatus } from '@renamer/runtime/testing';

const WORKER_ENTRY = fileURLToPath(new URL('../../apps/worker/src/server.ts', import.meta.url));
/** A worker whose every analysis takes SLOW_ANALYSIS_MS, for the tests that kill one mid-job. */
export const SLOW_WORKER_ENTRY = fileURLToPath(
  new URL('../../apps/worker/test/support/slow-worker.ts', import.meta.url),
);

/**
 * The real pipeline on loopback: API instances in this process and worker processes, sharing one PostgreSQL
 * database, one Redis prefix and one object store directory, as separate machines would.
 */
export async function startPipelineStack(name: string, apiOverrides: Record<string, string> = {}) {
  const apis = await startApiStack(name, apiOverrides);
  const workers: SpawnedService[] = [];
  return {
    ...apis,

    async startWorker(overrides: Record<string, string> = {}, entry = WORKER_ENTRY) {
      const port = await freePort();
      const worker = spawnService(entry, {
        ...apis.env,
        WORKER_PORT: String(port),
        WORKER_LOCK_MS: '2000',
        WORKER_STALLED_CHECK_MS: '1000',
        RECONCILE_EVERY_MS: '1000',
        RECONCILE_AFTER_SECONDS: '2',
        ...overrides,
      });
      await waitForStatus(worker, `http://127.0.0.1:${port}/health/ready`);
      workers.push(worker);
      return Object.assign(worker, { url: `http://127.0.0.1:${port}` });
    },

    async close() {
      for (const worker of workers) await worker.stop();
      await apis.close();
    },
  };
}

export type PipelineStack = Awaited<ReturnType<typeof startPipelineStack>>;
