import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';

export function bufferStream(bytes: Buffer): Readable {
  return Readable.from([bytes]);
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function sha256Of(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** `size` random bytes produced chunk by chunk; `sha256()` is known once the stream has been read. */
export function randomStream(size: number, chunkSize = 64 * 1024): { stream: Readable; sha256: () => string } {
  const hash = createHash('sha256');
  async function* chunks() {
    for (let sent = 0; sent < size; sent += chunkSize) {
      const chunk = randomBytes(Math.min(chunkSize, size - sent));
      hash.update(chunk);
      yield chunk;
    }
  }
  return { stream: Readable.from(chunks()), sha256: () => hash.digest('hex') };
}

/** Emits `bytesBeforeFailure` bytes, then fails the way a dropped client upload does. */
export function failingStream(bytesBeforeFailure: number): Readable {
  async function* chunks() {
    yield Buffer.alloc(bytesBeforeFailure, 7);
    await new Promise((resolve) => setTimeout(resolve, 20));
    throw new Error('client went away');
  }
  return Readable.from(chunks());
}

/** A stream that records whether anyone tried to read it. */
export function untouchedStream(): { stream: Readable; wasRead: () => boolean } {
  let read = false;
  const stream = new Readable({
    read() {
      read = true;
      this.push(null);
    },
  });
  return { stream, wasRead: () => read };
}
