import { createReadStream } from 'node:fs';
import type { ObjectStore, PutOptions, PutResult } from './object-store';

/**
 * `putFile` by streaming the file through the store's own `put`. The read stream is closed here too: a put
 * that fails before reading it would leave the descriptor open.
 */
export async function putFileByStream(
  store: Pick<ObjectStore, 'put'>,
  key: string,
  path: string,
  options: PutOptions,
): Promise<PutResult> {
  const body = createReadStream(path);
  try {
    return await store.put(key, body, options);
  } finally {
    body.destroy();
  }
}
