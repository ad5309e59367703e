import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateApiKey } from '@renamer/auth';
import { ServerMessage } from '@renamer/contracts';
import { createRepositories } from '@renamer/db';
import { emailHash } from '@renamer/domain';
import { createLogger, createPlatform } from '@renamer/runtime';
import {
  createIsolatedDatabase,
  freePort,
  type SpawnedService,
  spawnService,
  testDir,
  testServiceEnv,
  waitForStatus,
} from '@renamer/runtime/testing';
import { userObjectPrefix } from '@renamer/storage';
import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import { buildApi } from '../../src/app';
import { loadApiEnv } from '../../src/env';

/** Answers of several shapes (bodies and problems) that the tests read field by field. */
// biome-ignore lint/suspicious/noExplicitAny: a test reads whichever fields the answer it expects has
export type Json = Record<string, any>;

export interface UploadFile {
  name: string;
  bytes: Buffer;
  type: string;
}

/**
 * API instances on loopback sharing one PostgreSQL database (of the stack's own), one Redis prefix and one
 * object store directory, as separate machines would; the end-to-end tests add worker processes (e2e/).
 */
const WORKER_ENTRY = fileURLToPath(new URL('../../../worker/src/server.ts', import.meta.url));

export async function startApiStack(name: string, apiOverrides: Record<string, string> = {}) {
  const uploadTmpDir = testDir(`${name}-spool`);
  const base = testServiceEnv(name);
  const database = await createIsolatedDatabase(base.DATABASE_URL!);
  const env = {
    ...base,
    DATABASE_URL: database.url,
    UPLOAD_TMP_DIR: uploadTmpDir,
    ...apiOverrides,
  };
  const parsedEnv = loadApiEnv(env);
  const platform = createPlatform(parsedEnv);
  const repositories = createRepositories(platform.db.db);
  const apis: { app: FastifyInstance; url: string; close: () => Promise<void> }[] = [];
  const workers: SpawnedService[] = [];

  return {
    env,
    platform,
    repositories,
    uploadTmpDir,
    leftoverSpoolFiles: () => readdirSync(uploadTmpDir),

    /** The keys of every object stored for this user, sorted. */
    async storedKeys(userId: string) {
      const keys: string[] = [];
      for await (const object of platform.store.list(userObjectPrefix(userId))) keys.push(object.key);
      return keys.sort();
    },

    async startApi(overrides: Record<string, string> = {}) {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const apiEnv = loadApiEnv({ ...env, PUBLIC_URL: url, ...overrides });
      const apiPlatform = createPlatform(apiEnv);
      const app = await buildApi({ env: apiEnv, logger: createLogger('api', apiEnv.LOG_LEVEL), platform: apiPlatform });
      await app.listen({ port, host: '127.0.0.1' });
      const api = {
        app,
        url,
        close: async () => {
          await app.close();
          await apiPlatform.close();
        },
      };
      apis.push(api);
      return api;
    },

    /** The real worker, in a process of its own as in production, on this stack's database, Redis and store. */
    async startWorker(overrides: Record<string, string> = {}) {
      const port = await freePort();
      const worker = spawnService(WORKER_ENTRY, { ...env, WORKER_PORT: String(port), ...overrides });
      workers.push(worker);
      await waitForStatus(worker, `http://127.0.0.1:${port}/health/ready`, 200, 40_000);
      return Object.assign(worker, { url: `http://127.0.0.1:${port}` });
    },

    /** A user with an API key, made directly in the database (sign-in has its own tests). */
    async createUser(options: { quota?: number } = {}) {
      const id = crypto.randomUUID();
      const user = await repositories.users.create({
        provider: 'https://issuer.test',
        providerSubject: id,
        displayName: `Tester ${id.slice(0, 6)}`,
        emailHash: emailHash(`${id}@renamer.test`),
        quota: options.quota ?? 50,
      });
      const { key, prefix, hash } = generateApiKey();
      await repositories.apiKeys.create({ userId: user.id, name: 'test', prefix, keyHash: hash });
      return { user, key, headers: { authorization: `Bearer ${key}` } };
    },

    async close() {
      for (const worker of workers) await worker.stop();
      for (const api of apis) await api.close();
      await platform.close();
      await database.drop();
    },
  };
}

export type ApiStack = Awaited<ReturnType<typeof startApiStack>>;

export async function upload(apiUrl: string, key: string, files: UploadFile[], fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [field, value] of Object.entries(fields)) form.append(field, value);
  for (const file of files) form.append('files', new Blob([file.bytes], { type: file.type }), file.name);
  const response = await fetch(`${apiUrl}/api/batch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as Json };
}

export async function getJson(url: string, key: string, init: RequestInit = {}) {
  const response = await fetch(url, { ...init, headers: { authorization: `Bearer ${key}`, ...init.headers } });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Json) : null };
}

/** A WebSocket client that keeps every message and waits for the ones a test expects. */
export async function connectWs(apiUrl: string, headers: Record<string, string>, options: { autoPong?: boolean } = {}) {
  const socket = new WebSocket(`${apiUrl.replace('http', 'ws')}/api/ws`, {
    headers,
    autoPong: options.autoPong ?? true,
  });
  const messages: ServerMessage[] = [];
  const waiters: (() => void)[] = [];
  socket.on('message', (data) => {
    // Every message must match the contract's union, as a client validating it would check.
    messages.push(ServerMessage.parse(JSON.parse(data.toString())));
    for (const wake of waiters.splice(0)) wake();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    messages,
    send: (message: unknown) => socket.send(JSON.stringify(message)),
    async waitFor(predicate: (all: ServerMessage[]) => boolean, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(messages)) {
        if (Date.now() > deadline) throw new Error(`timed out; got ${JSON.stringify(messages, null, 1)}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
      return messages;
    },
    close: () => socket.close(),
  };
}

/** Polls the batch status until `done` says so. */
export async function waitForBatch(
  apiUrl: string,
  key: string,
  batchId: string,
  done: (status: Json) => boolean,
  timeoutMs = 30_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await getJson(`${apiUrl}/api/batch/${batchId}/status`, key);
    if (body && done(body)) return body;
    if (Date.now() > deadline) throw new Error(`batch never got there: ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
