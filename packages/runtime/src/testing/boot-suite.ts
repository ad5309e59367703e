import { describe, expect, it } from 'vitest';
import { freePort } from './free-port';
import { spawnService, waitForStatus } from './spawn-service';
import { testServiceEnv } from './test-env';

/**
 * The boot contract every service keeps, run against its real entrypoint in its own process: it becomes
 * ready against real PostgreSQL, Redis and storage, serves health and metrics, answers unknown routes with
 * a problem document, closes cleanly on SIGTERM, and refuses to start on a bad variable, naming it.
 */
export function describeServiceBoot(options: { name: string; entry: string; portVariable: string }) {
  describe(`${options.name} boots`, () => {
    it('becomes ready, serves health and metrics, and stops cleanly on SIGTERM', async () => {
      const port = await freePort();
      const service = spawnService(options.entry, {
        ...testServiceEnv(options.name),
        [options.portVariable]: String(port),
      });
      try {
        const ready = await waitForStatus(service, `http://127.0.0.1:${port}/health/ready`);
        expect(await ready.json()).toMatchObject({
          status: 'ok',
          failed: [],
          checks: { db: { ok: true }, redis: { ok: true }, storage: { ok: true } },
        });
        const live = await fetch(`http://127.0.0.1:${port}/health/live`);
        expect(await live.json()).toEqual({ status: 'ok' });
        const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
        expect(metrics).toContain(`service="${options.name}"`);
        expect(metrics).toContain('http_requests_total{');
        const missing = await fetch(`http://127.0.0.1:${port}/no-such-route`);
        expect(missing.status).toBe(404);
        expect(missing.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      } finally {
        expect(await service.stop()).toBe(0);
      }
    });

    it('stays up with its dependencies down and says which on /health/ready', async () => {
      const [port, deadPort] = [await freePort(), await freePort()];
      const service = spawnService(options.entry, {
        ...testServiceEnv(options.name),
        [options.portVariable]: String(port),
        DATABASE_URL: `postgres://postgres@127.0.0.1:${deadPort}/nowhere`,
        REDIS_URL: `redis://127.0.0.1:${deadPort}`,
      });
      try {
        const unready = await waitForStatus(service, `http://127.0.0.1:${port}/health/ready`, 503);
        const body = (await unready.json()) as { failed: string[] };
        expect(body).toMatchObject({ status: 'unavailable', checks: { storage: { ok: true } } });
        expect(body.failed.sort()).toEqual(['db', 'redis']);
        expect((await fetch(`http://127.0.0.1:${port}/health/live`)).status).toBe(200);
      } finally {
        service.child.kill('SIGKILL');
        await service.exited;
      }
    });

    it('refuses to start on a bad variable and names it', async () => {
      const service = spawnService(options.entry, {
        ...testServiceEnv(options.name),
        [options.portVariable]: 'not-a-port',
        DATABASE_URL: 'mysql://nope',
      });
      expect(await service.exited).toBe(1);
      expect(service.output()).toContain(options.portVariable);
      expect(service.output()).toContain('DATABASE_URL');
    });
  });
}
