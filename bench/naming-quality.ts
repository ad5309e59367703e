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
import { nameImage } from '../apps/worker/src/analysis/name-image';
import { OPTIONAL_STEPS } from '../apps/worker/src/analysis/optional-steps';
import { createVisionToolkit } from '../apps/worker/src/analysis/vision-toolkit';
import { isCameraMadeFilename, MAX_STEM_LENGTH } from '../packages/domain/src/index';
import { createLlmProvider, llmConfigFromEnv, parseLlmEnv } from '../packages/llm/src/index';
import { OBJECT_WORDS } from '../packages/vision/src/index';
import {
  type FixturePhoto,
  judgeFilenameWords,
  judgeSubjects,
  strippedCopies,
  tuningPhotos,
  unseenPhotos,
} from '../packages/vision/src/testing/index';
import { appendBenchmarkRow, log, machine, runBench, table, tempDir } from './support';

/** The contract's rule for a proposal without a template: 3 to 6 parts, stop words and a `-2` suffix counted. */
const MIN_PARTS = 3;
const MAX_PARTS = 6;

interface Verdict {
  file: string;
  filename: string;
  correct: string[];
  neutral: string[];
  wrong: string[];
  visible: string[];
  main: string[];
  wrongObjects: string[];
  /** Why the name breaks the rules; empty when it keeps them. */
  broken: string[];
  ms: number;
  /** The vision model's step: its outcome and tokens; absent without a model. */
  model?: { outcome: string; ms: number; tokens?: { prompt: number; completion: number } };
}

function brokenRules(filename: string): string[] {
  const stem = filename.slice(0, filename.lastIndexOf('.'));
  const parts = stem.split('-').filter(Boolean).length;
  const broken: string[] = [];
  if (parts < MIN_PARTS || parts > MAX_PARTS) broken.push(`${parts} part(s)`);
  if (stem.length > MAX_STEM_LENGTH) broken.push(`${stem.length} characters`);
  if (isCameraMadeFilename(filename)) broken.push('camera-made');
  return broken;
}

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
    const verdicts = await judgeAll(photos, paths);
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
    const count = verdicts.length;
    const words = verdicts.reduce((sum, v) => sum + v.correct.length + v.neutral.length + v.wrong.length, 0);
    const wrongWords = verdicts.reduce((sum, verdict) => sum + verdict.wrong.length, 0);
    const wrongObjects = verdicts.reduce((sum, verdict) => sum + verdict.wrongObjects.length, 0);
    const namingSomethingTrue = verdicts.filter((verdict) => verdict.correct.length > 0).length;
    log(`${namingSomethingTrue} of ${count} names say something true; ${wrongWords} of ${words} words wrong`);
    log(
      `${verdicts.filter((verdict) => verdict.visible.length > 0).length} of ${count} name a visible subject, ` +
        `${verdicts.filter((verdict) => verdict.main.length > 0).length} its main subject; ` +
        `${verdicts.filter((verdict) => verdict.broken.length === 0).length} of ${count} keep the rules; ` +
        `${wrongObjects} wrong object or person word(s)`,
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

  /** Names each photograph as the worker would, from a camera's filename and no words of the person. */
  async function judgeAll(photos: readonly FixturePhoto[], paths: readonly string[]): Promise<Verdict[]> {
    const verdicts: Verdict[] = [];
    for (const [index, photo] of photos.entries()) {
      const context = { originalFilename: `IMG_${4400 + index}.JPG`, keywords: [], context: null, locale: 'en' };
      const started = performance.now();
      const analysis = await analyzer.analyze(paths[index]!, context);
      const ms = Math.round(performance.now() - started);
      const named = nameImage(analysis, context);
      const step = analysis.provenance.find((entry) => entry.step === 'llm');
      verdicts.push({
        file: photo.file,
        filename: named.filename,
        ...judgeFilenameWords(photo, named.words),
        ...judgeSubjects(photo, named.words, OBJECT_WORDS),
        broken: brokenRules(named.filename),
        ms,
        ...(step && { model: { outcome: step.outcome, ms: step.durationMs, tokens: step.tokens } }),
      });
    }
    return verdicts;
  }
});
