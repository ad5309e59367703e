import { describe, expect, it } from 'vitest';
import { BoundedChecks } from '../src/services/batches/bounded-checks';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('BoundedChecks', () => {
  it('runs at most `limit` checks at once and gives the results in start order, not end order', async () => {
    const checks = new BoundedChecks<number>(2);
    const gates = [deferred<number>(), deferred<number>(), deferred<number>()];
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const starting = (async () => {
      for (const [index, gate] of gates.entries()) {
        await checks.start(async () => {
          started.push(index);
          most = Math.max(most, ++running);
          const value = await gate.promise;
          running -= 1;
          return value;
        });
      }
    })();
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    gates[1]!.resolve(1);
    await starting;
    expect(started).toEqual([0, 1, 2]);
    gates[2]!.resolve(2);
    gates[0]!.resolve(0);
    expect(await checks.all()).toEqual([0, 1, 2]);
    expect(most).toBe(2);
  });

  it('refuses to start another check once one has failed, and still waits for the rest', async () => {
    const checks = new BoundedChecks<string>(2);
    const slow = deferred<string>();
    await checks.start(() => slow.promise);
    await checks.start(() => Promise.reject(new Error('disk full')));
    await expect(checks.start(async () => 'never')).rejects.toThrow('disk full');
    const settled = checks.settled();
    slow.resolve('kept');
    expect(await settled).toEqual(['kept']);
  });
});
