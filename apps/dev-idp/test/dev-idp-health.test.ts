import { describe, expect, it } from 'vitest';
import { createDevIdp } from '../src';

describe('dev-idp health', () => {
  it('answers /health/ready so `npm start` can wait for it', async () => {
    const idp = createDevIdp({ issuer: 'http://127.0.0.1:0', clients: [] });
    const issuer = await idp.listen();
    try {
      const response = await fetch(`${issuer}/health/ready`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ok' });
    } finally {
      await idp.close();
    }
  });
});
