import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Config, Human } from '@vladmandic/human';
import { serialQueue } from './serial';
import { type Tfjs, tfjsRuntime } from './tfjs-runtime';

/** centernet's input square: the model accepts no other size. */
export const COCO_INPUT_PX = 512;

export interface CocoModel {
  human: Human;
  tf: Tfjs;
}

const require = createRequire(import.meta.url);
// The package's exports map names no file for Node's WASM build, so it is loaded by path.
const humanRoot = dirname(dirname(require.resolve('@vladmandic/human')));

/** Only centernet: every other model of human is off, and no result is ever reused for a later image. */
const config: Partial<Config> = {
  backend: 'wasm',
  modelBasePath: pathToFileURL(join(humanRoot, 'models/')).href,
  debug: false,
  async: true,
  warmup: 'none',
  cacheSensitivity: 0,
  skipAllowed: false,
  filter: { enabled: false },
  gesture: { enabled: false },
  face: { enabled: false },
  body: { enabled: false },
  hand: { enabled: false },
  segmentation: { enabled: false },
  object: {
    enabled: true,
    modelPath: 'centernet.json',
    // human's own floor; the detector applies its calibrated threshold afterwards.
    minConfidence: 0.05,
    iouThreshold: 0.4,
    maxDetected: 20,
    skipFrames: 0,
    skipTime: 0,
  },
};

// Loading and freeing take turns, so a detector created while the last one closes gets a model that stays loaded.
const lifecycle = serialQueue();
let shared: CocoModel | undefined;
let users = 0;

/** The process's one centernet, loaded on first use and shared until its last user releases it. */
export function acquireCocoModel(): Promise<CocoModel> {
  return lifecycle(async () => {
    shared ??= await load();
    users += 1;
    return shared;
  });
}

export function releaseCocoModel(): Promise<void> {
  return lifecycle(async () => {
    users -= 1;
    if (users > 0 || !shared) return;
    const { human } = shared;
    shared = undefined;
    for (const model of Object.values(human.models.models)) model?.dispose();
    human.models.reset();
    // Human keeps the model in module state too; a reset makes its next load read the files again (and re-create
    // its six scalar constants, the only tensors it never frees).
    human.reset();
  });
}

async function load(): Promise<CocoModel> {
  const tf = await tfjsRuntime();
  const { Human: HumanClass } = require(
    join(humanRoot, 'dist/human.node-wasm.js'),
  ) as typeof import('@vladmandic/human');
  const human = new HumanClass(config);
  if (human.tf.engine() !== tf.engine()) throw new Error('@vladmandic/human resolved a second copy of tfjs-core');
  await human.load();
  if (!human.models.models.centernet) throw new Error('the COCO object model (centernet) did not load');
  return { human, tf };
}
