import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger, logStreamKey } from '../src';
import { freePort, testServiceEnv } from '../src/testing';

const redis = new Redis(process.env.REDIS_URL!);
afterAll(() => redis.disconnect());

const shippingTo = (key: string, redisUrl = process.env.REDIS_URL!) => ({
  redisUrl,
  key,
  maxEntries: 1000,
  retentionMs: 3600 * 1000,
});

const entries = async (key: string) =>
  (await redis.xrange(key, '-', '+')).map(([, fields]) => JSON.parse(fields[1]!) as Record<string, unknown>);

describe('shipping warnings and errors to Redis', () => {
  it('ships warnings and errors with their service, request id and error, and nothing below', async () => {
    const key = logStreamKey(testServiceEnv('log-shipping').REDIS_PREFIX);
    const logger = createLogger('worker', 'info', 'test', shippingTo(key));
    logger.info({ requestId: 'req-1' }, 'an ordinary line');
    logger.warn({ requestId: 'req-1' }, 'the disk is almost full');
    logger.error({ requestId: 'req-2', err: new TypeError('bad input') }, 'a job failed');

    await expect.poll(async () => (await entries(key)).length, { timeout: 5_000 }).toBe(2);
    expect(await entries(key)).toEqual([
      {
        time: expect.any(String),
        level: 'warn',
        service: 'worker',
        msg: 'the disk is almost full',
        requestId: 'req-1',
      },
      {
        time: expect.any(String),
        level: 'error',
        service: 'worker',
        msg: 'a job failed',
        requestId: 'req-2',
        err: { type: 'TypeError', message: 'bad input' },
      },
    ]);
  });

  it('goes on logging when Redis cannot be reached', async () => {
    const key = logStreamKey(testServiceEnv('log-shipping-down').REDIS_PREFIX);
    const logger = createLogger('api', 'warn', 'test', shippingTo(key, `redis://127.0.0.1:${await freePort()}`));
    // The lines go to stdout as ever; the transport drops what it cannot send instead of queueing it.
    for (let i = 0; i < 100; i++) expect(() => logger.warn({ i }, 'while Redis is away')).not.toThrow();
    logger.flush();
    expect(await redis.exists(key)).toBe(0);
  });
});
