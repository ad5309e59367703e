/**
 * The worker as `npm start` runs it, except that every analysis first waits `SLOW_ANALYSIS_MS`: for the
 * tests that kill a worker process in the middle of a job, or watch each image change live.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { runWorker } from '../../src/run-worker';

const delayMs = Number(process.env.SLOW_ANALYSIS_MS);
if (!Number.isInteger(delayMs) || delayMs < 0) throw new Error('SLOW_ANALYSIS_MS must be a whole number of ms');
await runWorker({
  wrapAnalyzer: (analyzer) => ({
    async analyze(path, context) {
      await sleep(delayMs);
      return analyzer.analyze(path, context);
    },
  }),
});
