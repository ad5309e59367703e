import { describe, expect, it } from 'vitest';
import { serialQueue } from '../src/models/serial';

describe('serialQueue', () => {
  it('runs tasks one at a time in order, and drops one whose signal aborted while it waited', async () => {
    const queue = serialQueue();
    const ran: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = queue(async () => {
      ran.push('first');
      await held;
    });
    const waiting = new AbortController();
    const dropped = queue(async () => ran.push('dropped'), waiting.signal);
    const last = queue(async () => ran.push('last'));
    waiting.abort(new Error('the step ran out of time'));
    release();

    await first;
    await expect(dropped).rejects.toThrow('the step ran out of time');
    await last;
    expect(ran).toEqual(['first', 'last']);
  });
});
