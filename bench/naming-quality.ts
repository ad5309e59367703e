/**
 * Naming quality: the worker's full local analyser names every fixture photograph (metadata stripped, so only
 * the pixels speak; a camera's filename, no words of the person), and each name's words are judged against what
 * the photograph shows (`judgeFilenameWords`). The tuning set is what the thresholds were measured on; the held-out set
 * (`fixtures/photos-unseen`) was never tuned on, and judges the result unseen. Prints every name with its
 * verdict and appends one dated row per set to docs/benchmarks.md ("Naming quality").
 *
 *   npm run bench -- naming-quality
 *   node_modules/.bin/tsx bench/naming-quality.ts
 */
import { join } from 'node:path';
import { createImageAnalyzer } from '../apps/worker/src/analysis/create-image-analyzer';
import { OPTIONAL_STEPS } from '../apps/worker/src/analysis/optional-steps';
import { createVisionToolkit } from '../apps/worker/src/analysis/vision-toolkit';
import { judgeProposals, tally } from '../apps/worker/test/support/naming-quality';
import { strippedCopies, tuningPhotos, unseenPhotos } from '../packages/vision/src/testing/index';
import { appendBenchmarkRow, log, machine, runBench, table, tempDir } from './support';

await runBench('naming-quality', 10, async (cleanup) => {
  const dir = tempDir(cleanup, 'naming');
  const toolkit = createVisionToolkit({ ocrCachePath: join(dir, 'ocr'), safetyThreshold: 0.7, llm: null });
  cleanup.add('end the analyser', () => toolkit.close());
  const analyzer = createImageAnalyzer(toolkit, { steps: new Set(OPTIONAL_STEPS), llmTimeoutMs: 0 });
  const about = machine();

  for (const [set, photos] of [
    ['tuning', await tuningPhotos()],
    ['held-out', await unseenPhotos()],
  ] as const) {
    const verdicts = await judgeProposals(analyzer, photos, await strippedCopies(photos, join(dir, set)));
    log(`\n${set} set`);
    log(
      table(
        ['photo', 'proposed name', 'wrong words'],
        verdicts.map((verdict) => [verdict.file, verdict.filename, verdict.wrong.join(' ') || '-']),
      ),
    );
    const result = tally(verdicts);
    log(
      `${result.namingSomethingTrue} of ${result.photos} names say something true; ${result.wrongWords} of ${result.words} words wrong`,
    );
    appendBenchmarkRow('Naming quality', [
      new Date().toISOString().slice(0, 10),
      about.code,
      set,
      `${result.namingSomethingTrue} / ${result.photos}`,
      `${result.wrongWords} / ${result.words}`,
      verdicts
        .filter((verdict) => verdict.wrong.length)
        .map((verdict) => `${verdict.file}: ${verdict.wrong.join(' ')}`)
        .join('; ') || '-',
    ]);
  }
});
