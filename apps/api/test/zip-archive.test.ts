import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { testDir } from '@renamer/runtime/testing';
import { describe, expect, it } from 'vitest';
import { zipArchive } from '../src/services/downloads/zip-archive';
import { run } from './downloads-world';

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await pipeline(
    stream,
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
    }),
  );
  return Buffer.concat(chunks);
}

describe('zipArchive', () => {
  it('knows its exact length ahead, also when the central directory passes 64 KiB', async () => {
    const mtime = new Date('2026-11-23T12:00:00Z');
    // 1,200 entries with long names: a central directory of about 140 kB.
    const streamed = Array.from({ length: 1_200 }, (_, i) => {
      const bytes = Buffer.from(`image ${i} `.repeat(10));
      return {
        name: `a-rather-long-descriptive-file-name-of-image-number-${String(i).padStart(5, '0')}.jpg`,
        size: bytes.length,
        mtime,
        open: async () => Readable.from([bytes]),
      };
    });
    let recorded = -1;
    const archive = zipArchive(streamed, [{ name: 'renamer/manifest.csv', content: 'a,b\r\n', mtime }], {
      onError: (error) => {
        throw error;
      },
      onClose: (bytes) => {
        recorded = bytes;
      },
    });
    const bytes = await collect(archive.stream);
    expect(archive.size).toBe(bytes.length);
    await new Promise((resolve) => setImmediate(resolve));
    expect(recorded).toBe(bytes.length);

    const path = join(testDir('zip-archive'), 'many.zip');
    await writeFile(path, bytes);
    await run('unzip', ['-tq', path]);
    const names = (await run('unzip', ['-Z1', path], { maxBuffer: 2 ** 24 })).stdout.trim().split('\n');
    expect(names).toEqual([...streamed.map((entry) => entry.name), 'renamer/manifest.csv']);
  });

  it('breaks off with the error of a source that fails in the middle, and opens no further source', async () => {
    const opened: string[] = [];
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(1000));
        this.destroy(new Error('store connection reset'));
      },
    });
    const entry = (name: string, source: () => Readable) => ({
      name,
      mtime: new Date(),
      open: async () => {
        opened.push(name);
        return source();
      },
    });
    const errors: Error[] = [];
    const archive = zipArchive(
      [
        entry('a.jpg', () => Readable.from([Buffer.alloc(10)])),
        entry('b.jpg', () => failing),
        entry('c.jpg', () => Readable.from([])),
      ],
      [],
      { onError: (error) => errors.push(error), onClose: () => {} },
    );
    await expect(collect(archive.stream)).rejects.toThrow('store connection reset');
    expect(errors.map((error) => error.message)).toEqual(['store connection reset']);
    expect(opened).toEqual(['a.jpg', 'b.jpg']);
  });
});
