import { say } from './say';

export class StopRequested extends Error {
  constructor(readonly signal: NodeJS.Signals) {
    super(`stopped by ${signal}`);
  }
}

const controller = new AbortController();
export const stopSignal: AbortSignal = controller.signal;

type StopListener = (force: boolean) => void;
const listeners: StopListener[] = [];

export function onStop(listener: StopListener): void {
  listeners.push(listener);
}

/** The first Ctrl-C or SIGTERM asks everything to stop cleanly; a second one forces it. */
export function listenForStopSignals(): void {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      const force = stopSignal.aborted;
      if (force) {
        say(`${signal} again: killing what is left`);
      } else {
        say(`${signal}: stopping…`);
        controller.abort(new StopRequested(signal));
      }
      for (const listener of listeners) listener(force);
    });
  }
}

export function throwIfStopped(): void {
  stopSignal.throwIfAborted();
}

/** Resolves when a stop is requested; lets a flow race its waits against Ctrl-C. */
export const stopRequested: Promise<StopRequested> = new Promise((resolve) => {
  stopSignal.addEventListener('abort', () => resolve(stopSignal.reason as StopRequested), { once: true });
});
