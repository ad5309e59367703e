import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * `source` as it is read, counted: `done` gets the bytes that passed once the stream closes, whether it
 * ended (`completed`: its reader took every byte) or was cut off (destroying the returned stream destroys `source` too).
 */
export function countBytes(source: Readable, done: (bytes: number, completed: boolean) => void): Readable {
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      callback(null, chunk);
    },
  });
  counter.once('close', () => done(bytes, counter.readableEnded));
  // Its errors reach the reader through `counter`, which pipeline destroys with them.
  pipeline(source, counter).catch(() => {});
  return counter;
}
