import { Readable } from 'node:stream';
import { createLogger, createPlatform, type Platform } from '@renamer/runtime';
import { testServiceEnv } from '@renamer/runtime/testing';
import { signDownloadLink } from '@renamer/storage';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApi } from '../src/app';
import { loadApiEnv } from '../src/env';

const env = loadApiEnv(testServiceEnv('api-files'));
let platform: Platform;
let app: FastifyInstance;
const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7) % 256));

beforeAll(async () => {
  platform = createPlatform(env);
  app = await buildApi({ env, logger: createLogger('api', env.LOG_LEVEL), platform });
  await platform.store.put('tests/files/photo.jpg', Readable.from([bytes]), {
    size: bytes.length,
    contentType: 'image/jpeg',
  });
});

afterAll(async () => {
  await app.close();
  await platform.close();
});

const pathOf = (url: string) => new URL(url).pathname;

describe('signed file links of the filesystem store', () => {
  it('streams the exact bytes under the requested filename', async () => {
    const link = await platform.store.downloadUrl('tests/files/photo.jpg', {
      expiresInSeconds: 60,
      filename: 'red-fox-in-snow.jpg',
    });
    expect(link.url.startsWith(`${env.PUBLIC_URL}/api/files/`)).toBe(true);
    const res = await app.inject({ url: pathOf(link.url) });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(bytes)).toBe(true);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['content-disposition']).toContain('filename="red-fox-in-snow.jpg"');
  });

  it('refuses a tampered link with 403', async () => {
    const link = await platform.store.downloadUrl('tests/files/photo.jpg', { expiresInSeconds: 60 });
    const path = pathOf(link.url);
    // In the middle: a base64url string's last characters can carry only padding bits.
    const at = Math.floor(path.length / 2);
    const tampered = `${path.slice(0, at)}${path[at] === 'A' ? 'B' : 'A'}${path.slice(at + 1)}`;
    const res = await app.inject({ url: tampered });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'forbidden' });
  });

  it('refuses an expired link with 410 link_expired', async () => {
    const token = signDownloadLink(
      { key: 'tests/files/photo.jpg', expiresAt: new Date(Date.now() - 1000) },
      env.SESSION_SECRET,
    );
    const res = await app.inject({ url: `/api/files/${token}` });
    expect(res.statusCode).toBe(410);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({ code: 'link_expired' });
  });

  it('answers not_found when the object is gone', async () => {
    const token = signDownloadLink(
      { key: 'tests/files/missing.jpg', expiresAt: new Date(Date.now() + 60_000) },
      env.SESSION_SECRET,
    );
    const res = await app.inject({ url: `/api/files/${token}` });
    expect(res.statusCode).toBe(404);
  });
});

describe('OpenAPI', () => {
  it('serves a document generated from the route schemas', async () => {
    const res = await app.inject({ url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ openapi: '3.1.0', info: { title: 'Renamer API' } });
  });
});

describe('security headers', () => {
  it('sets helmet headers on every answer', async () => {
    const res = await app.inject({ url: '/health/live' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['strict-transport-security']).toBeDefined();
  });
});
