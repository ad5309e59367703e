import { Transform } from 'node:stream';
import { ObjectSizeMismatchError } from './errors';

/**
 * Passes bytes through and fails unless exactly `size` arrive. The latest chunk is held back until the
 * source ends, so a destination never receives a complete body from a stream that turns out too long.
 */
export function exactSize(size: number): Transform {
  let received = 0;
  let held: Buffer | undefined;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      if (received > size) return callback(new ObjectSizeMismatchError(size, received, false));
      const previous = held;
      held = chunk;
      callback(null, previous);
    },
    flush(callback) {
      if (received !== size) return callback(new ObjectSizeMismatchError(size, received, true));
      callback(null, held);
    },
  });
}
