import type { Logger } from './logger';

export type Closer = () => Promise<unknown>;

/**
 * Runs `closers` in order once, on the first SIGTERM or SIGINT; a second signal, or closers that take
 * longer than `timeoutMs`, end the process at once.
 */
export function closeOnSignals(logger: Logger, closers: Closer[], timeoutMs = 25_000): void {
  let closing = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (closing) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    closing = true;
    logger.info({ signal }, 'shutting down');
    const deadline = setTimeout(() => {
      logger.error('shutdown timed out');
      process.exit(1);
    }, timeoutMs);
    deadline.unref();
    let exitCode = 0;
    for (const close of closers) {
      try {
        await close();
      } catch (err) {
        exitCode = 1;
        logger.error({ err }, 'error while shutting down');
      }
    }
    logger.info('stopped');
    logger.flush?.();
    process.exit(exitCode);
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

/** Boot failures (bad configuration, a port in use) end the process with one readable message. */
export function exitOnBootFailure(service: string, error: unknown): never {
  console.error(`${service} failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
