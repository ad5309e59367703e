import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCredentialRecheck, type SocketCredential } from '../src/ws/credential-recheck';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function start(count: number, intervalMs: number) {
  const sockets = new Map<string, { credential: SocketCredential }>();
  for (let i = 0; i < count; i++) sockets.set(`s${i}`, { credential: { via: 'apiKey', id: `k${i}` } });
  const revoked = new Set<string>();
  const calls: string[][] = [];
  const invalid: string[] = [];
  const recheck = createCredentialRecheck({
    sockets,
    intervalMs,
    check: async (credentials) => {
      calls.push(credentials.map((credential) => credential.id));
      return new Set(credentials.map((credential) => credential.id).filter((id) => !revoked.has(id)));
    },
    onInvalid: (socket) => {
      invalid.push(socket);
      sockets.delete(socket);
    },
  });
  return { sockets, revoked, calls, invalid, recheck };
}

describe('re-checking the sockets’ credentials', () => {
  it('checks a share of the sockets each second in one call, each socket once per interval', async () => {
    const { calls, recheck } = start(25, 10_000);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toHaveLength(10);
    expect(calls.every((call) => call.length === 3)).toBe(true);
    const checked = calls.flat();
    // 30 turns for 25 sockets: every socket once, and the round starts again at the first.
    expect(new Set(checked).size).toBe(25);
    expect(checked.slice(0, 25)).toEqual(Array.from({ length: 25 }, (_, i) => `k${i}`));
    recheck.stop();
  });

  it('reports a revoked credential within one interval, and reaches sockets added meanwhile', async () => {
    const { sockets, revoked, invalid, recheck } = start(20, 5_000);
    await vi.advanceTimersByTimeAsync(2_000);
    sockets.set('late', { credential: { via: 'session', id: 'late-session' } });
    revoked.add('k0');
    revoked.add('late-session');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(invalid.sort()).toEqual(['late', 's0']);
    recheck.stop();
  });

  it('keeps every socket when the check fails', async () => {
    const sockets = new Map([['s', { credential: { via: 'apiKey' as const, id: 'k' } }]]);
    const onInvalid = vi.fn();
    const recheck = createCredentialRecheck({
      sockets,
      intervalMs: 1_000,
      check: () => Promise.reject(new Error('database down')),
      onInvalid,
    });
    await vi.advanceTimersByTimeAsync(3_000);
    expect(onInvalid).not.toHaveBeenCalled();
    recheck.stop();
  });
});
