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

/**
 * centernet for objects, blazeface (its box only) and movenet for people; every other model of human is off, and
 * no result is ever reused for a later image. Each call turns on the models it runs (`OBJECTS_ONLY`, `PEOPLE_ONLY`).
 */
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
  face: {
    enabled: true,
    detector: {
      modelPath: 'blazeface.json',
      rotation: false,
      maxDetected: 10,
      // human's own floor; the people rules apply their calibrated thresholds afterwards.
      minConfidence: 0.2,
      iouThreshold: 0.1,
      skipFrames: 0,
      skipTime: 0,
      return: false,
    },
    // Only the face's box: no mesh, iris, age, gender, emotion or liveness model is ever loaded.
    mesh: { enabled: false },
    iris: { enabled: false },
    attention: { enabled: false },
    emotion: { enabled: false },
    description: { enabled: false },
    antispoof: { enabled: false },
    liveness: { enabled: false },
  },
  body: {
    enabled: true,
    modelPath: 'movenet-lightning.json',
    maxDetected: 1,
    minConfidence: 0.2,
    skipFrames: 0,
    skipTime: 0,
  },
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

/** Per-call switches: `human.detect` runs only the models these leave on. */
export const OBJECTS_ONLY: Partial<Config> = {
  object: { enabled: true } as Config['object'],
  face: { enabled: false } as Config['face'],
  body: { enabled: false } as Config['body'],
};
export const PEOPLE_ONLY: Partial<Config> = {
  object: { enabled: false } as Config['object'],
  face: { enabled: true } as Config['face'],
  body: { enabled: true } as Config['body'],
};
export const BODY_ONLY: Partial<Config> = {
  object: { enabled: false } as Config['object'],
  face: { enabled: false } as Config['face'],
  body: { enabled: true } as Config['body'],
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
  for (const name of ['centernet', 'blazeface', 'movenet'] as const) {
    if (!human.models.models[name]) throw new Error(`the ${name} model of @vladmandic/human did not load`);
  }
  return { human, tf };
}
