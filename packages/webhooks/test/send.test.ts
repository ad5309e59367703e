import { createServer, type IncomingHttpHeaders, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { generateWebhookSecret } from '../src/messages';
import { sendMessage } from '../src/send';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A listener on 127.0.0.1 that records every request it gets. */
async function listen(handler: RequestListener = (_request, response) => response.writeHead(204).end()) {
  const requests: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      handler(request, response);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, requests };
}

const secret = generateWebhookSecret();
const message = (at = new Date()) => ({
  messageId: 'msg_test1',
  body: JSON.stringify({ type: 'webhook.test', timestamp: at.toISOString(), data: {} }),
  secret,
  at,
});
const insecure = { allowInsecure: true };

describe('sending one message', () => {
  it('posts the body with headers the reference library verifies', async () => {
    const receiver = await listen();
    const result = await sendMessage(`http://127.0.0.1:${receiver.port}/hooks`, message(), insecure);
    expect(result).toEqual({ delivered: true, responseStatus: 204, error: null });
    const [request] = receiver.requests;
    expect(new Webhook(secret).verify(request!.body, request!.headers as Record<string, string>)).toMatchObject({
      type: 'webhook.test',
    });
  });

  it('goes nowhere on loopback without WEBHOOKS_ALLOW_INSECURE, whether by address or by a name', async () => {
    const receiver = await listen();
    for (const url of [`https://127.0.0.1:${receiver.port}/`, `https://localhost:${receiver.port}/`]) {
      const result = await sendMessage(url, message(), { allowInsecure: false });
      expect(result.delivered).toBe(false);
      expect(result.responseStatus).toBeNull();
    }
    // Even a name that the resolver (injected: no DNS query leaves) maps to a private address.
    const privateName = await sendMessage('https://hooks.example.com/', message(), {
      allowInsecure: true,
      resolve: async () => [{ address: '10.0.0.8', family: 4 }],
    });
    expect(privateName).toMatchObject({ delivered: false, responseStatus: null });
    expect(privateName.error).toContain('only to public addresses');
    expect(privateName.error).not.toContain('10.0.0.8');
    expect(receiver.requests).toHaveLength(0);
  });

  it('connects to the address the guard allowed, not to one a second lookup could give', async () => {
    const receiver = await listen();
    // The name resolves (once, through the injected resolver) to loopback: the request goes there.
    const result = await sendMessage(`http://hooks.example.com:${receiver.port}/x`, message(), {
      allowInsecure: true,
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    expect(result.delivered).toBe(true);
    expect(receiver.requests[0]?.headers.host).toBe(`hooks.example.com:${receiver.port}`);
  });

  it('does not follow a redirect: a 3xx is a failure and its target hears nothing', async () => {
    const target = await listen();
    const redirecting = await listen((_request, response) =>
      response.writeHead(302, { location: `http://127.0.0.1:${target.port}/` }).end(),
    );
    const result = await sendMessage(`http://127.0.0.1:${redirecting.port}/`, message(), insecure);
    expect(result).toMatchObject({ delivered: false, responseStatus: 302 });
    expect(result.error).toContain('redirect');
    expect(target.requests).toHaveLength(0);
  });

  it('gives up on an endpoint that does not answer in time, and on a 500', async () => {
    const silent = await listen(() => undefined);
    const slow = await sendMessage(`http://127.0.0.1:${silent.port}/`, message(), { ...insecure, timeoutMs: 300 });
    expect(slow).toMatchObject({ delivered: false, responseStatus: null });
    expect(slow.error).toContain('no answer within');
    const failing = await listen((_request, response) => response.writeHead(500).end('boom'));
    expect(await sendMessage(`http://127.0.0.1:${failing.port}/`, message(), insecure)).toMatchObject({
      delivered: false,
      responseStatus: 500,
    });
  });

  it('stops reading an endless answer at the cap', async () => {
    const chatty = await listen((_request, response) => {
      response.writeHead(200);
      const chunk = Buffer.alloc(16 * 1024, 97);
      const pump = () => {
        while (response.write(chunk)) {}
        response.once('drain', pump);
      };
      pump();
      response.on('error', () => undefined);
    });
    const started = Date.now();
    const result = await sendMessage(`http://127.0.0.1:${chatty.port}/`, message(), insecure);
    expect(result).toMatchObject({ delivered: true, responseStatus: 200 });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
