import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type ApiStack, startApiStack } from '@renamer/api/testing';
import { testDir } from '@renamer/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `renamer webhooks …` from its source (tsx; the bundle is e2e/cli.test.ts's), against a real API that allows
 * endpoints on loopback (WEBHOOKS_ALLOW_INSECURE=true) and another as production runs it.
 */
const MAIN = fileURLToPath(new URL('../apps/cli/src/main.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../node_modules/tsx/dist/cli.mjs', import.meta.url));

let stack: ApiStack;
let insecureUrl: string;
let strictUrl: string;
let listener: Server;
let hits = 0;
let hookUrl = '';

beforeAll(async () => {
  stack = await startApiStack('cli-webhooks');
  insecureUrl = (await stack.startApi({ WEBHOOKS_ALLOW_INSECURE: 'true' })).url;
  strictUrl = (await stack.startApi({ WEBHOOKS_ALLOW_INSECURE: 'false' })).url;
  listener = createServer((_request, response) => {
    hits += 1;
    response.writeHead(204).end();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/hooks`;
}, 60_000);

afterAll(async () => {
  await new Promise<void>((resolve) => listener?.close(() => resolve()));
  await stack?.close();
});

function renamer(args: string[], server: string, apiKey: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [TSX, MAIN, ...args], {
      env: {
        PATH: process.env.PATH!,
        RENAMER_SERVER: server,
        RENAMER_API_KEY: apiKey,
        XDG_CONFIG_HOME: testDir('cli-webhooks-config'),
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('renamer webhooks', () => {
  it('adds (the secret printed once), lists, tests, shows the attempt log and removes an endpoint', async () => {
    const { key } = await stack.createUser();
    const added = await renamer(
      ['webhooks', 'add', hookUrl, '--events', 'batch.completed,image.failed', '--json'],
      insecureUrl,
      key,
    );
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    const created = JSON.parse(added.stdout) as { id: string; secret: string; events: string[] };
    expect(created.secret).toMatch(/^whsec_/);
    expect(created.events).toEqual(['batch.completed', 'image.failed']);

    const listed = await renamer(['webhooks', 'list'], insecureUrl, key);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(created.id);
    expect(listed.stdout).toContain('batch.completed,image.failed');
    expect(listed.stdout).toContain('active');
    expect(listed.stdout).not.toContain(created.secret);

    const tested = await renamer(['webhooks', 'test', created.id], insecureUrl, key);
    expect(tested.code).toBe(0);
    const messageId = /queued (msg_\w+)/.exec(tested.stdout)?.[1];
    expect(messageId).toBeDefined();
    const deliveries = await renamer(['webhooks', 'deliveries', created.id, '--json'], insecureUrl, key);
    expect(deliveries.code).toBe(0);
    expect(JSON.parse(deliveries.stdout)).toMatchObject([{ messageId, event: 'webhook.test', attempt: 1 }]);

    const removed = await renamer(['webhooks', 'remove', created.id], insecureUrl, key);
    expect(removed.code).toBe(0);
    expect(removed.stderr).toContain('removed');
    const gone = await renamer(['webhooks', 'remove', created.id], insecureUrl, key);
    expect(gone.code).not.toBe(0);
    expect(gone.stderr).toContain('No such webhook');
  });

  it('says why a loopback URL is refused by a server without the development setting, and an unknown event', async () => {
    const { key } = await stack.createUser();
    const refused = await renamer(['webhooks', 'add', hookUrl], strictUrl, key);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('https');
    const unknown = await renamer(['webhooks', 'add', hookUrl, '--events', 'batch.exploded'], insecureUrl, key);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('unknown event batch.exploded');
    expect(hits).toBe(0);
  });
});
