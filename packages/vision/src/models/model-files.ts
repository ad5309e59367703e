import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { io } from '@tensorflow/tfjs';

type LoadRouter = Parameters<typeof io.registerLoadRouter>[0];

/**
 * A tfjs load router for `file://` model URLs: reads `model.json` and its weight shards from disk. tfjs has no
 * file loader outside tfjs-node, and Node 20's fetch rejects `file://`, so without this a model that ships inside a
 * package could only be loaded over the network.
 */
export function fileUrlLoadRouter(tfIo: typeof io): LoadRouter {
  const route = (url: string | string[]): io.IOHandler | null => {
    if (typeof url !== 'string' || !url.startsWith('file://')) return null;
    const path = fileURLToPath(url);
    return { load: () => readModelArtifacts(tfIo, path) };
  };
  // tfjs asks every router and keeps the ones that answer; its type omits the null of a router that passes.
  return route as LoadRouter;
}

async function readModelArtifacts(tfIo: typeof io, path: string): Promise<io.ModelArtifacts> {
  const modelJson = JSON.parse(await readFile(path, 'utf8')) as io.ModelJSON;
  return tfIo.getModelArtifactsForJSON(modelJson, async (manifest) => {
    const shards = manifest.flatMap((group) => group.paths.map((shard) => join(dirname(path), shard)));
    const bytes = Buffer.concat(await Promise.all(shards.map((shard) => readFile(shard))));
    const weightData = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    return [manifest.flatMap((group) => group.weights), weightData];
  });
}
