import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { photo } from '@renamer/api/testing';
import { testDir } from '@renamer/runtime/testing';
import type { DecodedImage } from '@renamer/vision';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisStep } from '../src/analysis/analysis-step';
import { createImageAnalyzer } from '../src/analysis/create-image-analyzer';
import { metadataStep } from '../src/analysis/metadata-step';
import { OPTIONAL_STEPS } from '../src/analysis/optional-steps';
import { createStepPipeline } from '../src/analysis/step-pipeline';
import { createVisionToolkit } from '../src/analysis/vision-toolkit';

let dir: string;
let landscape: string;
const context = {
  originalFilename: 'harbour at dusk.png',
  keywords: ['boats'],
  context: null,
  locale: 'en',
};

beforeAll(async () => {
  dir = testDir('analysis');
  landscape = join(dir, 'landscape.png');
  await writeFile(landscape, await photo('png', 1, 2000, 1000));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const step = (overrides: Partial<AnalysisStep> & Pick<AnalysisStep, 'name' | 'run'>): AnalysisStep => ({
  source: `${overrides.name} (test)`,
  timeoutMs: 1_000,
  optional: true,
  ...overrides,
});

describe('the production analyser', () => {
  it('fails the attempt when the file is not an image it can read', async () => {
    const toolkit = createVisionToolkit({ ocrCachePath: join(dir, 'ocr'), safetyThreshold: 0.7, llm: null });
    const notAnImage = join(dir, 'notes.png');
    await writeFile(notAnImage, 'just some text\n');
    const analyzer = createImageAnalyzer(toolkit, { steps: new Set(OPTIONAL_STEPS), llmTimeoutMs: 0 });
    try {
      await expect(analyzer.analyze(notAnImage, context)).rejects.toThrow();
    } finally {
      await toolkit.close();
    }
  });
});

describe('a pipeline of steps', () => {
  it('records an optional step that fails, skips it, and goes on with the next', async () => {
    const ran: string[] = [];
    const analysis = await createStepPipeline([
      metadataStep,
      step({
        name: 'objects',
        run: async () => {
          throw new Error('model not loaded');
        },
      }),
      step({
        name: 'colours',
        run: async () => {
          ran.push('colours');
          return { visionTags: [{ label: 'blue', confidence: 0.9, source: 'colour' as const }] };
        },
      }),
    ]).analyze(landscape, context);

    expect(ran).toEqual(['colours']);
    expect(analysis.metadata.width).toBe(2000);
    expect(analysis.visionTags).toEqual([{ label: 'blue', confidence: 0.9, source: 'colour' as const }]);
    expect(analysis.provenance.map(({ step, outcome }) => [step, outcome])).toEqual([
      ['metadata', 'ok'],
      ['objects', 'failed'],
      ['colours', 'ok'],
    ]);
    expect(analysis.provenance[1]).toMatchObject({ source: 'objects (test)', error: 'model not loaded' });
  });

  it('gives up on an optional step at its timeout, aborts it, and records it as timed out', async () => {
    let aborted = false;
    const started = performance.now();
    const analysis = await createStepPipeline([
      metadataStep,
      step({
        name: 'llm',
        timeoutMs: 100,
        run: async ({ signal }) => {
          signal.addEventListener('abort', () => {
            aborted = true;
          });
          await sleep(5_000);
          return { altText: 'too late' };
        },
      }),
    ]).analyze(landscape, context);

    expect(performance.now() - started).toBeLessThan(2_000);
    expect(aborted).toBe(true);
    expect(analysis.altText).toBeNull();
    expect(analysis.provenance[1]).toMatchObject({ step: 'llm', outcome: 'timed-out' });
    expect(analysis.provenance[1]?.durationMs).toBeGreaterThanOrEqual(90);
  });

  it('fails the attempt when a required step fails or runs out of time', async () => {
    const failing = step({
      name: 'safety',
      optional: false,
      run: async () => {
        throw new Error('classifier crashed');
      },
    });
    await expect(createStepPipeline([metadataStep, failing]).analyze(landscape, context)).rejects.toThrow(
      'classifier crashed',
    );
    const hanging = step({ name: 'safety', optional: false, timeoutMs: 50, run: () => new Promise(() => {}) });
    await expect(createStepPipeline([metadataStep, hanging]).analyze(landscape, context)).rejects.toThrow(
      'step safety timed out after 50 ms',
    );
  });

  it('decodes the pixels once, upright and shrunk, for every step that reads them', async () => {
    const seen: DecodedImage[] = [];
    const readsPixels = (name: string) =>
      step({
        name,
        run: async ({ decoded }) => {
          seen.push(await decoded());
          return {};
        },
      });
    await createStepPipeline([metadataStep, readsPixels('objects'), readsPixels('text')]).analyze(landscape, context);

    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(seen[1]);
    expect(seen[0]).toMatchObject({ width: 1024, height: 512, channels: 3 });
    expect(seen[0]?.pixels.length).toBe(1024 * 512 * 3);
  });
});
