/**
 * Runs async tasks one after another in the order they were given; a failed task does not stop the next. A task
 * whose `signal` was aborted while it waited is dropped when its turn comes (a running one cannot be stopped).
 */
export function serialQueue() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> => {
    const turn = () => {
      signal?.throwIfAborted();
      return task();
    };
    const run = tail.then(turn, turn);
    tail = run.catch(() => undefined);
    return run;
  };
}
