/**
 * Naming quality: the worker's full analyser names every fixture photograph (metadata stripped, so only the pixels
 * speak; a camera's filename, no words of the person), and each name's words are judged against what the photograph
 * shows (`judgeFilenameWords`, `judgeSubjects`). The tuning set is what the thresholds were measured on; the held-out
 * set (`fixtures/photos-unseen`) was never tuned on, and judges the result unseen. Prints every name with its
 * verdict, then per set: the names that name a visible subject (and the main one), the names that keep the rules
 * (3 to 6 hyphen-separated parts, at most 60 characters before the extension, not a camera-made name), the wrong
 * words, the time per image and, with a vision model, its tokens per image. Appends one dated row per set to
 * docs/benchmarks.md ("Naming quality") unless `--no-record`.
 *
 * The vision model is the worker's: with `LLM_BASE_URL` and `LLM_MODEL` set (and the other `LLM_*` variables, as
 * docs/vision-models.md describes them), it is asked last for every photograph, exactly as the worker asks it;
 * without them, the local analyser alone names the photographs and nothing leaves the machine.
 *
 *   npm run bench -- naming-quality
 *   node_modules/.bin/tsx bench/naming-quality.ts [--no-record]
 *   LLM_BASE_URL=http://127.0.0.1:11434/v1 LLM_MODEL=qwen2.5vl:3b LLM_TIMEOUT_MS=180000 \
 *     node_modules/.bin/tsx bench/naming-quality.ts --no-record
 */
import { join } from 'node:path';
import { createImageAnalyzer } from '../apps/worker/src/analysis/create-image-analyzer';
import { OPTIONAL_STEPS } from '../apps/worker/src/analysis/optional-steps';
import { createVisionToolkit } from '../apps/worker/src/analysis/vision-toolkit';
import { judgeProposals, tally } from '../apps/worker/test/support/naming-quality';
import { createLlmProvider, llmConfigFromEnv, parseLlmEnv } from '../packages/llm/src/index';
import { strippedCopies, tuningPhotos, unseenPhotos } from '../packages/vision/src/testing/index';
import { appendBenchmarkRow, log, machine, runBench, table, tempDir } from './support';

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)]! : 0;
};
const p90 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.9) - 1)]! : 0;
};
const mean = (values: number[]) => (values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : 0);

await runBench('naming-quality', 60, async (cleanup) => {
  const record = !process.argv.includes('--no-record');
  // The worker's own variables and checks: half a configuration stops here, as it stops the worker.
  const llmConfig = llmConfigFromEnv(parseLlmEnv(process.env));
  const dir = tempDir(cleanup, 'naming');
  const toolkit = createVisionToolkit({
    ocrCachePath: join(dir, 'ocr'),
    safetyThreshold: 0.7,
    llm: llmConfig ? createLlmProvider(llmConfig) : null,
  });
  cleanup.add('end the analyser', () => toolkit.close());
  // As the worker does: the provider bounds a call, retries included; the step allows twice that.
  const analyzer = createImageAnalyzer(toolkit, {
    steps: new Set(OPTIONAL_STEPS),
    llmTimeoutMs: 2 * (llmConfig?.timeoutMs ?? 0),
  });
  const about = machine();
  log(
    llmConfig
      ? `vision model ${llmConfig.model} at ${llmConfig.baseUrl} (timeout ${llmConfig.timeoutMs} ms), after the local analyser`
      : 'the local analyser alone (no LLM_BASE_URL and LLM_MODEL: nothing leaves this machine)',
  );

  for (const [set, photos] of [
    ['tuning', await tuningPhotos()],
    ['held-out', await unseenPhotos()],
  ] as const) {
    const paths = await strippedCopies(photos, join(dir, set));
    const verdicts = await judgeProposals(analyzer, photos, paths);
    log(`\n${set} set`);
    log(
      table(
        ['photo', 'proposed name', 'wrong words', 'rules', 'ms', ...(llmConfig ? ['model', 'tokens'] : [])],
        verdicts.map((verdict) => [
          verdict.file,
          verdict.filename,
          verdict.wrong.join(' ') || '-',
          verdict.broken.join(', ') || 'kept',
          verdict.ms,
          ...(verdict.model
            ? [
                verdict.model.outcome,
                verdict.model.tokens ? `${verdict.model.tokens.prompt} + ${verdict.model.tokens.completion}` : '-',
              ]
            : llmConfig
              ? ['-', '-']
              : []),
        ]),
      ),
    );
    const result = tally(verdicts);
    const { photos: count, words, wrongWords, namingSomethingTrue } = result;
    log(`${namingSomethingTrue} of ${count} names say something true; ${wrongWords} of ${words} words wrong`);
    log(
      `${result.namingVisibleSubject} of ${count} name a visible subject, ${result.namingMainSubject} its main subject; ` +
        `${result.keepingRules} of ${count} keep the rules; ${result.wrongObjectWords} wrong object or person word(s)`,
    );
    const times = verdicts.map((verdict) => verdict.ms);
    log(`time per image: median ${median(times)} ms, p90 ${p90(times)} ms`);
    if (llmConfig) {
      const calls = verdicts.flatMap((verdict) => (verdict.model ? [verdict.model] : []));
      const counted = calls.flatMap((call) => (call.tokens ? [call.tokens] : []));
      const byOutcome = new Map<string, number>();
      for (const call of calls) byOutcome.set(call.outcome, (byOutcome.get(call.outcome) ?? 0) + 1);
      const outcomes = [...byOutcome].map(([outcome, n]) => `${n} ${outcome}`).join(', ');
      log(
        `vision model: ${calls.length} calls (${outcomes || 'none'}), median ${median(calls.map((call) => call.ms))} ms a call; ` +
          (counted.length
            ? `tokens per image ${Math.round(mean(counted.map((t) => t.prompt)))} prompt + ${Math.round(mean(counted.map((t) => t.completion)))} completion (${counted.length} calls counted)`
            : 'the server reported no tokens'),
      );
    }
    if (record) {
      appendBenchmarkRow('Naming quality', [
        new Date().toISOString().slice(0, 10),
        about.code,
        llmConfig ? `${set}, model ${llmConfig.model}` : set,
        `${namingSomethingTrue} / ${count}`,
        `${wrongWords} / ${words}`,
        verdicts
          .filter((verdict) => verdict.wrong.length)
          .map((verdict) => `${verdict.file}: ${verdict.wrong.join(' ')}`)
          .join('; ') || '-',
      ]);
    }
  }
});
