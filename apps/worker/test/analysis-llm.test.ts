import { join } from 'node:path';
import { altText } from '@renamer/domain';
import { createLlmProvider } from '@renamer/llm';
import { type FakeOpenAiServer, startFakeOpenAiServer } from '@renamer/llm/testing';
import { testDir } from '@renamer/service-kit/testing';
import { tuningPhotos } from '@renamer/vision/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImageAnalyzer } from '../src/analysis/create-image-analyzer';
import { nameImage } from '../src/analysis/name-image';
import { createVisionToolkit, type VisionToolkit } from '../src/analysis/vision-toolkit';

let server: FakeOpenAiServer;
let toolkit: VisionToolkit;
let kite: string;

beforeAll(async () => {
  server = await startFakeOpenAiServer();
  const llm = createLlmProvider({
    baseUrl: server.url,
    apiKey: 'sk-test',
    model: 'vision-test-model',
    timeoutMs: 3_000,
    maxRetries: 0,
    concurrency: 1,
    responseFormat: 'json_object',
  });
  toolkit = createVisionToolkit({ ocrCachePath: join(testDir('analysis-llm'), 'ocr'), safetyThreshold: 0.7, llm });
  kite = (await tuningPhotos()).find((photo) => photo.file === 'kite.jpg')!.path;
});
afterAll(async () => {
  await toolkit?.close();
  await server?.close();
});

const context = { originalFilename: 'IMG_7001.JPG', keywords: [], context: null, locale: 'en' };
const analyzer = () =>
  createImageAnalyzer(toolkit, { steps: new Set(['pixels', 'llm'] as const), llmTimeoutMs: 5_000 });

describe('the vision model in the analyser', () => {
  it('is sent a small JPEG with the local tags, and its words and alt text name the image', async () => {
    server.reply({
      content: JSON.stringify({
        titleWords: ['red', 'kite', 'blue', 'sky'],
        tags: [{ label: 'kite string', confidence: 0.8 }],
        altText: 'A red kite flying high in a clear blue sky.',
      }),
    });
    const analysis = await analyzer().analyze(kite, context);
    const named = nameImage(analysis, context);

    expect(analysis.provenance.map(({ step, outcome }) => [step, outcome])).toContainEqual(['llm', 'ok']);
    expect(named.filename).toMatch(/^red-kite-blue-sky/);
    expect(named.altText).toBe('A red kite flying high in a clear blue sky.');
    expect(analysis.visionTags).toContainEqual({ label: 'kite string', confidence: 0.8, source: 'llm' });
    const request = JSON.stringify(server.requests.at(-1)!.messages);
    expect(server.requests.at(-1)!.model).toBe('vision-test-model');
    expect(request).toContain('data:image/jpeg;base64,');
    // The local colour and scene words go with it as hints.
    for (const tag of analysis.visionTags.filter((t) => t.source === 'colour' || t.source === 'scene')) {
      expect(request).toContain(tag.label);
    }
  });

  it('falls back to the local tags when the model answers nonsense, and says so', async () => {
    server.reply({ content: 'Sure! Here is a kite {not json' });
    const analysis = await analyzer().analyze(kite, context);
    const named = nameImage(analysis, context);

    expect(analysis.provenance.find((record) => record.step === 'llm')).toMatchObject({ outcome: 'failed' });
    expect(analysis.visionTags.map((tag) => tag.source)).not.toContain('llm');
    expect(analysis.altText).toBeNull();
    expect(named.words.length).toBeGreaterThan(0);
    // The alt text the local tags give.
    expect(named.altText).toBe(altText(named.tags, { filenameWords: named.words, locale: 'en' }));
    expect(named.altText).toBeTruthy();
  });
});
