import { join } from 'node:path';
import { testDir } from '@renamer/runtime/testing';
import { metadataPhoto, strippedCopies, tuningPhotos, unseenPhotos } from '@renamer/vision/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImageAnalyzer } from '../src/analysis/create-image-analyzer';
import type { ImageAnalyzer } from '../src/analysis/image-analyzer';
import { nameImage } from '../src/analysis/name-image';
import { OPTIONAL_STEPS } from '../src/analysis/optional-steps';
import { createVisionToolkit, type VisionToolkit } from '../src/analysis/vision-toolkit';
import { judgeProposals, tally } from './support/naming-quality';

let dir: string;
let toolkit: VisionToolkit;
let analyzer: ImageAnalyzer;

beforeAll(() => {
  dir = testDir('analysis-quality');
  toolkit = createVisionToolkit({ ocrCachePath: join(dir, 'ocr'), safetyThreshold: 0.7, llm: null });
  analyzer = createImageAnalyzer(toolkit, { steps: new Set(OPTIONAL_STEPS), llmTimeoutMs: 0 });
});
afterAll(() => toolkit?.close());

const camera = { originalFilename: 'IMG_4411.JPG', keywords: [], context: null, locale: 'en' };

describe('the production analyser on real photographs', () => {
  it('names most photographs by something in them from the pixels alone, and never an object that is not there', async () => {
    const photos = await tuningPhotos();
    const verdicts = await judgeProposals(analyzer, photos, await strippedCopies(photos, join(dir, 'stripped')));
    const result = tally(verdicts);
    const report = JSON.stringify(verdicts, null, 1);

    expect(result.namingSomethingTrue, report).toBeGreaterThan(result.photos / 2);
    // Measured on the tuning set: 28 of 53 name a visible subject, 17 the main one, no wrong object word.
    expect(result.namingVisibleSubject, report).toBeGreaterThanOrEqual(Math.ceil(result.photos * 0.5));
    expect(result.namingMainSubject, report).toBeGreaterThanOrEqual(Math.ceil(result.photos * 0.3));
    expect(result.wrongObjectWords, report).toBe(0);
    // Every name within the rules: 3 to 6 parts, 60 characters, never a camera's name.
    expect(result.keepingRules, report).toBe(result.photos);
  }, 180_000);

  it('names photographs it was never tuned on by a visible subject, and rarely says a wrong object', async () => {
    const photos = await unseenPhotos();
    const verdicts = await judgeProposals(analyzer, photos, await strippedCopies(photos, join(dir, 'unseen')));
    const result = tally(verdicts);
    const report = JSON.stringify(verdicts, null, 1);

    // Measured on the held-out set (issue 26's third round): 9 of 16 name a visible subject (56 %), 7 the main one;
    // no wrong object word in 48 (the second round's cat called a dog is gone). Issue 26's bar is 60 % named after a
    // visible subject: not reached (packages/vision/README.md). Its wrong-word bar, at most one object word in
    // fifteen, holds; asserted tighter, at most one in all, as none is said.
    expect(result.namingVisibleSubject, report).toBeGreaterThanOrEqual(Math.ceil(result.photos / 2));
    expect(result.namingMainSubject, report).toBeGreaterThanOrEqual(Math.ceil(result.photos / 3));
    expect(result.wrongObjectWords, report).toBeLessThanOrEqual(Math.min(1, Math.floor(result.words / 15)));
    expect(result.keepingRules, report).toBe(result.photos);
  }, 180_000);

  it('runs every local step once, judges the picture safe and hashes it', async () => {
    const [photo] = await tuningPhotos();
    const analysis = await analyzer.analyze(photo!.path, camera);

    expect(analysis.provenance.map(({ step, outcome }) => [step, outcome])).toEqual([
      ['metadata', 'ok'],
      ['file-metadata', 'ok'],
      ['pixels', 'ok'],
      ['objects', 'ok'],
      ['text', 'ok'],
      ['safety', 'ok'],
    ]);
    expect(analysis.safety).toEqual({ unsafe: false, score: expect.any(Number) });
    expect(analysis.perceptualHash).toMatch(/^[0-9a-f]{16}$/);
  }, 60_000);

  it("names a photographer's file by their words and its place, and by none of its boilerplate", async () => {
    const written = await metadataPhoto(join(dir, 'metadata'), toolkit.exiftool);
    const analysis = await analyzer.analyze(written.path, camera);
    const named = nameImage(analysis, camera);

    expect(named.words).toEqual(expect.arrayContaining(['fig']));
    expect(analysis.visionTags).toContainEqual(expect.objectContaining({ source: 'place', label: 'lisbon' }));
    const boilerplateWords = written.boilerplate
      .flatMap((text) => text.toLowerCase().split(/[^a-z]+/))
      .filter((word) => word.length > 3 && !['fresh', 'orange', 'bowl'].includes(word));
    for (const word of boilerplateWords) {
      expect(named.filename).not.toContain(word);
      expect(named.altText ?? '').not.toContain(word);
    }
    expect(named.altText).toBeTruthy();
  }, 60_000);
});
