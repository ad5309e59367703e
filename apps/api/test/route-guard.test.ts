import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { openRoutes } from '@renamer/auth/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthStack, startAuthStack } from './support/auth-stack';

let stack: AuthStack;

beforeAll(async () => {
  stack = await startAuthStack({ name: 'api-route-guard' });
});
afterAll(() => stack?.close());

describe('credentials by default', () => {
  it('answers every API route without credentials with 401, except the public ones', async () => {
    const { routes, open } = await openRoutes(stack.api, stack.apiUrl);
    expect(routes).toContain('PATCH /api/auth/me');
    expect(open).toEqual([
      'GET /api/auth/callback',
      'GET /api/auth/csrf',
      'GET /api/auth/login',
      'GET /api/auth/providers',
      'GET /api/files/:token',
      'GET /api/openapi.json',
      'GET /health/live',
      'GET /health/ready',
      'GET /metrics',
      'POST /api/payments/webhook',
    ]);
  });

  it('refuses a WebSocket upgrade without credentials with 401, and closes the connection', async () => {
    const { port } = new URL(stack.apiUrl);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write(
          [
            'GET /api/ws HTTP/1.1',
            'Host: 127.0.0.1',
            'Connection: Upgrade',
            'Upgrade: websocket',
            'Sec-WebSocket-Version: 13',
            `Sec-WebSocket-Key: ${randomUUID().replaceAll('-', '').slice(0, 22)}==`,
            '',
            '',
          ].join('\r\n'),
        ),
      );
      let raw = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => {
        raw += chunk;
      });
      socket.on('close', () => resolve(raw));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer).toContain('"code":"unauthenticated"');
  }, 5_000);
});
