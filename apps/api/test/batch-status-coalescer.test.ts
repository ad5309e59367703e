import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBatchStatusCoalescer, type RoomEvent } from '../src/ws/batch-status-coalescer';

const batchId = randomUUID();
const status = (processed: number, id = batchId): RoomEvent => ({
  type: 'batch.status',
  batchId: id,
  status: 'processing',
  processed,
  total: 100,
  progress: processed / 100,
  at: new Date().toISOString(),
});
const image = (name: string): RoomEvent => ({
  type: 'image.status',
  batchId,
  imageId: randomUUID(),
  status: 'ready',
  proposedFilename: name,
  at: new Date().toISOString(),
});
/** `s<processed>` for a status, the file name for an image: what a client would see, in order. */
const label = (event: RoomEvent) =>
  event.type === 'batch.status' ? `s${event.processed}` : event.type === 'image.status' ? event.proposedFilename : '';

function start() {
  const sent: RoomEvent[] = [];
  const coalescer = createBatchStatusCoalescer(100, (event) => sent.push(event));
  return { coalescer, seen: () => sent.map(label) };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('coalescing batch.status', () => {
  it('sends the first status at once, then the last of a burst when the interval ends, and nothing after', () => {
    const { coalescer, seen } = start();
    for (let processed = 1; processed <= 50; processed++) coalescer.push(status(processed));
    expect(seen()).toEqual(['s1']);
    vi.advanceTimersByTime(99);
    expect(seen()).toEqual(['s1']);
    vi.advanceTimersByTime(1);
    expect(seen()).toEqual(['s1', 's50']);
    vi.advanceTimersByTime(1_000);
    expect(seen()).toEqual(['s1', 's50']);
    expect(coalescer.size).toBe(0);
  });

  it('sends at most one status per interval for a steady stream, and always the last state', () => {
    const { coalescer, seen } = start();
    for (let processed = 1; processed <= 100; processed++) {
      coalescer.push(status(processed));
      vi.advanceTimersByTime(10);
    }
    vi.advanceTimersByTime(100);
    expect(seen()).toEqual(['s1', 's10', 's20', 's30', 's40', 's50', 's60', 's70', 's80', 's90', 's100']);
  });

  it('sends image events at once, dropping a held status older than them', () => {
    const { coalescer, seen } = start();
    coalescer.push(image('a.jpg'));
    coalescer.push(status(1));
    coalescer.push(image('b.jpg'));
    coalescer.push(status(2));
    coalescer.push(image('c.jpg'));
    // Published: a s1 b s2 c. s2 is held when c arrives, and would be older than c: it never goes out.
    expect(seen()).toEqual(['a.jpg', 's1', 'b.jpg', 'c.jpg']);
    vi.advanceTimersByTime(100);
    expect(seen()).toEqual(['a.jpg', 's1', 'b.jpg', 'c.jpg']);
    expect(coalescer.size).toBe(0);
  });

  it('sends the status that follows the last image when the interval ends', () => {
    const { coalescer, seen } = start();
    coalescer.push(status(1));
    coalescer.push(image('b.jpg'));
    coalescer.push(status(2));
    coalescer.push(image('c.jpg'));
    coalescer.push(status(3));
    vi.advanceTimersByTime(100);
    expect(seen()).toEqual(['s1', 'b.jpg', 'c.jpg', 's3']);
  });

  it('coalesces each batch on its own', () => {
    const other = randomUUID();
    const { coalescer, seen } = start();
    coalescer.push(status(1));
    coalescer.push(status(7, other));
    coalescer.push(status(2));
    coalescer.push(status(8, other));
    expect(seen()).toEqual(['s1', 's7']);
    vi.advanceTimersByTime(100);
    expect(seen()).toEqual(['s1', 's7', 's2', 's8']);
  });

  it('sends what is held on flush, and forgets it on drop', () => {
    const { coalescer, seen } = start();
    coalescer.push(status(1));
    coalescer.push(status(2));
    coalescer.flush(batchId);
    expect(seen()).toEqual(['s1', 's2']);
    coalescer.push(status(3));
    coalescer.push(status(4));
    coalescer.drop(batchId);
    vi.advanceTimersByTime(1_000);
    expect(seen()).toEqual(['s1', 's2', 's3']);
    expect(coalescer.size).toBe(0);
  });
});
