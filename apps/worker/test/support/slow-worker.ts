/**
 * The worker as `npm start` runs it, except that every analysis first waits `SLOW_ANALYSIS_MS` (0 when unset), and
 * with `FAIL_ANALYSIS=true` then fails: for the tests that kill a worker process in the middle of a job, watch each
 * image change live, or need an image the service could not analyse.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { runWorker } from '../../src/run-worker';

const delayMs = Number(process.env.SLOW_ANALYSIS_MS ?? 0);
if (!Number.isInteger(delayMs) || delayMs < 0) throw new Error('SLOW_ANALYSIS_MS must be a whole number of ms');
const fail = process.env.FAIL_ANALYSIS === 'true';
await runWorker({
  wrapAnalyzer: (analyzer) => ({
    async analyze(path, context) {
      await sleep(delayMs);
      if (fail) throw new Error('analysis failed on purpose (FAIL_ANALYSIS)');
      return analyzer.analyze(path, context);
    },
  }),
});
