/** Runs checks at most `limit` at a time and gives their results in the order they were started. */
export class BoundedChecks<T> {
  readonly #limit: number;
  readonly #results: Promise<T>[] = [];
  readonly #running = new Set<Promise<void>>();
  #failure: { error: unknown } | undefined;

  constructor(limit: number) {
    if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError('limit must be a positive integer');
    this.#limit = limit;
  }

  /** Waits for a free slot, then starts `check`; throws instead if a check started earlier has failed. */
  async start(check: () => Promise<T>): Promise<void> {
    while (this.#running.size >= this.#limit) await Promise.race(this.#running);
    if (this.#failure) throw this.#failure.error;
    const result = check();
    this.#results.push(result);
    const ended = () => {
      this.#running.delete(running);
    };
    const running: Promise<void> = result.then(ended, (error: unknown) => {
      this.#failure ??= { error };
      ended();
    });
    this.#running.add(running);
  }

  /** Every result, in start order; throws the first failure. */
  all(): Promise<T[]> {
    return Promise.all(this.#results);
  }

  /** The results of the checks that did not fail, once every started check has ended. */
  async settled(): Promise<T[]> {
    const outcomes = await Promise.allSettled(this.#results);
    return outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  }
}
