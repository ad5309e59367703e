import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SNIFF_HEAD_BYTES, type SpooledFile, type SpoolResult, spoolToTempFile } from '../src';
import { createScratch, noiseBytes, type Scratch } from './fixtures';

let scratch: Scratch;
beforeEach(async () => {
  scratch = await createScratch();
});
afterEach(() => scratch.remove());

function chunked(bytes: Buffer, chunkSize: number): Readable {
  return Readable.from(
    (function* () {
      for (let at = 0; at < bytes.length; at += chunkSize) yield bytes.subarray(at, at + chunkSize);
    })(),
  );
}

function spooled(result: SpoolResult): SpooledFile {
  if (!result.ok) throw new Error(`expected a spooled file, got ${result.reason}`);
  return result.file;
}

describe('spoolToTempFile', () => {
  it('writes the stream to a private file in the given directory, with its SHA-256 and head', async () => {
    const bytes = noiseBytes(200_000);
    const file = spooled(await spoolToTempFile(chunked(bytes, 7_000), { dir: scratch.dir, maxBytes: 1_000_000 }));

    expect(dirname(file.path)).toBe(scratch.dir);
    expect(file.size).toBe(bytes.length);
    expect(file.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(file.head.equals(bytes.subarray(0, SNIFF_HEAD_BYTES))).toBe(true);
    expect((await readFile(file.path)).equals(bytes)).toBe(true);
    expect((await stat(file.path)).mode & 0o777).toBe(0o600);
  });

  it('keeps the whole file as head when it is shorter than the sniffing window', async () => {
    const file = spooled(await spoolToTempFile(chunked(Buffer.from('tiny'), 2), { dir: scratch.dir, maxBytes: 10 }));
    expect(file.head.toString()).toBe('tiny');
    expect(file.size).toBe(4);
  });

  it('accepts a file of exactly maxBytes', async () => {
    const result = await spoolToTempFile(chunked(noiseBytes(1024), 100), { dir: scratch.dir, maxBytes: 1024 });
    expect(result.ok).toBe(true);
  });

  it('gives each file its own name and removes it on cleanup, idempotently', async () => {
    const options = { dir: scratch.dir, maxBytes: 100 };
    const first = spooled(await spoolToTempFile(chunked(Buffer.from('same'), 4), options));
    const second = spooled(await spoolToTempFile(chunked(Buffer.from('same'), 4), options));
    expect(first.path).not.toBe(second.path);

    await first.cleanup();
    await first.cleanup();
    expect(await readdir(scratch.dir)).toEqual([second.path.slice(scratch.dir.length + 1)]);
    await second.cleanup();
    expect(await readdir(scratch.dir)).toEqual([]);
  });

  it('answers too_large past maxBytes with the head to sniff, leaves no file, still reads the source to its end', async () => {
    const maxBytes = 64 * 1024;
    let produced = 0;
    let finished = false;
    const source = Readable.from(
      (function* () {
        for (let chunk = 0; chunk < 48; chunk++) {
          produced += 4096;
          yield Buffer.alloc(4096, chunk);
        }
        finished = true;
      })(),
    );

    const result = await spoolToTempFile(source, { dir: scratch.dir, maxBytes });

    expect(result).toEqual({
      ok: false,
      reason: 'too_large',
      maxBytes,
      receivedBytes: 3 * maxBytes,
      head: Buffer.concat([Buffer.alloc(4096, 0), Buffer.alloc(SNIFF_HEAD_BYTES - 4096, 1)]),
    });
    expect(produced).toBe(3 * maxBytes);
    expect(finished).toBe(true);
    expect(source.readableEnded).toBe(true);
    expect(await readdir(scratch.dir)).toEqual([]);
  });

  it('takes its limit from the head when given a function: called once, before the rest is written', async () => {
    const bytes = noiseBytes(100_000);
    const heads: Buffer[] = [];
    const limitFromHead = (limit: number) => (head: Buffer) => {
      heads.push(Buffer.from(head));
      return limit;
    };
    const kept = spooled(
      await spoolToTempFile(chunked(bytes, 3_000), { dir: scratch.dir, maxBytes: limitFromHead(100_000) }),
    );
    expect(kept.size).toBe(bytes.length);
    await kept.cleanup();
    const refused = await spoolToTempFile(chunked(bytes, 3_000), { dir: scratch.dir, maxBytes: limitFromHead(50_000) });
    expect(refused).toMatchObject({ ok: false, reason: 'too_large', maxBytes: 50_000, receivedBytes: 100_000 });
    expect(heads).toHaveLength(2);
    for (const head of heads) expect(head.equals(bytes.subarray(0, SNIFF_HEAD_BYTES))).toBe(true);
    const small = await spoolToTempFile(chunked(bytes.subarray(0, 1_000), 300), {
      dir: scratch.dir,
      maxBytes: limitFromHead(999),
    });
    expect(small).toMatchObject({ ok: false, reason: 'too_large', maxBytes: 999, receivedBytes: 1_000 });
    expect(heads[2]!.equals(bytes.subarray(0, 1_000))).toBe(true);
    expect(await readdir(scratch.dir)).toEqual([]);
  });

  it('removes the file and throws when the source fails', async () => {
    const source = Readable.from(
      (function* () {
        yield Buffer.alloc(1000, 1);
        throw new Error('client went away');
      })(),
    );
    await expect(spoolToTempFile(source, { dir: scratch.dir, maxBytes: 10_000 })).rejects.toThrow('client went away');
    expect(await readdir(scratch.dir)).toEqual([]);
  });

  it('refuses a stream of strings, leaving no file', async () => {
    await expect(spoolToTempFile(Readable.from(['text']), { dir: scratch.dir, maxBytes: 100 })).rejects.toThrow(
      TypeError,
    );
    expect(await readdir(scratch.dir)).toEqual([]);
  });
});
