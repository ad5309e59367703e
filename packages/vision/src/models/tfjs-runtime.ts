import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { fileUrlLoadRouter } from './model-files';

export type Tfjs = typeof tf;

tf.io.registerLoadRouter(fileUrlLoadRouter(tf.io));

let runtime: Promise<Tfjs> | undefined;

/**
 * The process's one tfjs, on the WASM backend, initialised on first use. Every model of the analyser runs on it:
 * two tfjs engines in one process would each hold their own WASM heap and kernels.
 */
export function tfjsRuntime(): Promise<Tfjs> {
  runtime ??= initialise().catch((error: unknown) => {
    runtime = undefined;
    throw error;
  });
  return runtime;
}

async function initialise(): Promise<Tfjs> {
  if (!(await tf.setBackend('wasm'))) throw new Error('the tfjs WASM backend failed to initialise');
  await tf.ready();
  return tf;
}
