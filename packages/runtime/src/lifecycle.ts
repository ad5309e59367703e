import { flushErrorTracking, flushTracing, reportError } from '@renamer/telemetry';
import closeWithGrace from 'close-with-grace';
import type { Logger } from './logger';

export type Closer = () => Promise<unknown>;

/**
 * Runs `closers` in order once, on the first termination signal (SIGTERM, SIGINT, SIGHUP …) or uncaught
 * error, then exits: 0 when everything closed after a signal, 1 otherwise. A second signal, or closers
 * that take longer than `graceMs`, end the process at once.
 */
export function closeOnSignals(logger: Logger, closers: Closer[], graceMs = 25_000): void {
  closeWithGrace(
    {
      delay: graceMs,
      logger,
      onSecondSignal: (signal) => logger.warn({ signal }, 'second signal: exiting now'),
      onTimeout: () => logger.error({ graceMs }, 'shutdown timed out'),
    },
    async ({ signal, err }) => {
      if (err) {
        logger.fatal({ err }, 'uncaught error: shutting down');
        reportError(err);
      } else logger.info({ signal }, 'shutting down');
      let failures = 0;
      for (const close of closers) {
        await close().catch((error: unknown) => {
          failures += 1;
          logger.error({ err: error }, 'error while shutting down');
        });
      }
      // What the tracer and the error tracker still hold goes out last, with the shutdown's own spans and errors.
      await Promise.all([flushTracing(), flushErrorTracking()]).catch((error: unknown) => {
        logger.warn({ err: error }, 'traces or errors not all sent');
      });
      // close-with-grace logs what is thrown here and exits with 1.
      if (failures) throw new Error(`${failures} resource(s) did not close`);
      logger.info('stopped');
    },
  );
}

/** Boot failures (bad configuration, a port in use) end the process with one readable message. */
export function exitOnBootFailure(service: string, error: unknown): never {
  console.error(`${service} failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
