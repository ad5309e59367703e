import { join } from 'node:path';
import { altText } from '@renamer/domain';
import { createLlmProvider } from '@renamer/llm';
import { type FakeOpenAiServer, startFakeOpenAiServer } from '@renamer/llm/testing';
import { testDir } from '@renamer/runtime/testing';
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

  it("gives the model the batch's instructions and template, and records the tokens its call used", async () => {
    server.reply({
      content: JSON.stringify({
        titleWords: ['red', 'kite', 'blue', 'sky'],
        tags: [],
        altText: 'A red kite flying high in a clear blue sky.',
      }),
      usage: { prompt_tokens: 1234, completion_tokens: 56 },
    });
    const withWishes = {
      ...context,
      locale: 'en-GB',
      keywords: ['kite festival'],
      template: 'acme-{subject}-{seq:3}',
      instructions: 'Mention the colour of the kite; British English please.',
    };
    const analysis = await analyzer().analyze(kite, withWishes);

    const sent = JSON.stringify(server.requests.at(-1)!.messages);
    expect(sent).toContain('<person_wishes>');
    expect(sent).toContain('Mention the colour of the kite; British English please.');
    expect(sent).toContain('acme-{subject}-{seq:3}');
    expect(sent).toContain('kite festival');
    expect(sent).toContain('British English (en-GB)');
    expect(analysis.provenance.find((record) => record.step === 'llm')).toEqual({
      step: 'llm',
      source: 'OpenAI-compatible vision model vision-test-model',
      outcome: 'ok',
      durationMs: expect.any(Number),
      tokens: { prompt: 1234, completion: 56 },
      // What the model was asked with: naming again asks it again only when these change.
      instructions: 'Mention the colour of the kite; British English please.',
    });
    // The model read the instructions: nothing says they went unused.
    expect(analysis.provenance.map((record) => record.step)).not.toContain('instructions');
  });

  it('keeps the tokens of an answer it could not use, and leaves them out when the server counts none', async () => {
    server.reply({ content: '{"titleWords": ["kite"]}', usage: { prompt_tokens: 900, completion_tokens: 7 } });
    const failed = await analyzer().analyze(kite, context);
    expect(failed.provenance.find((record) => record.step === 'llm')).toMatchObject({
      outcome: 'failed',
      tokens: { prompt: 900, completion: 7 },
    });

    server.reply({
      content: JSON.stringify({ titleWords: ['red', 'kite', 'sky'], tags: [], altText: 'A red kite in the sky.' }),
      usage: null,
    });
    const uncounted = await analyzer().analyze(kite, context);
    expect(uncounted.provenance.find((record) => record.step === 'llm')).toMatchObject({ outcome: 'ok' });
    expect(uncounted.provenance.find((record) => record.step === 'llm')).not.toHaveProperty('tokens');
  });

  it('says the instructions went unread when the llm-analysis flag switched the model off', async () => {
    const requests = server.requests.length;
    const switchedOff = createImageAnalyzer(toolkit, {
      steps: new Set(['pixels', 'llm'] as const),
      llmTimeoutMs: 5_000,
      llmEnabled: async () => false,
    });
    const analysis = await switchedOff.analyze(kite, { ...context, instructions: 'mention the kite colour' });

    expect(server.requests).toHaveLength(requests);
    expect(analysis.provenance.at(-1)).toEqual({
      step: 'instructions',
      source: 'the vision model is switched off (llm-analysis flag)',
      outcome: 'skipped',
      durationMs: 0,
    });
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

describe('instructions without a vision model', () => {
  let local: VisionToolkit;
  beforeAll(() => {
    local = createVisionToolkit({
      ocrCachePath: join(testDir('analysis-no-llm'), 'ocr'),
      safetyThreshold: 0.7,
      llm: null,
    });
  });
  afterAll(() => local?.close());

  it("records on the image that the person's instructions were not used, and why", async () => {
    const analyzer = createImageAnalyzer(local, { steps: new Set(['pixels', 'llm'] as const), llmTimeoutMs: 5_000 });
    const analysis = await analyzer.analyze(kite, { ...context, instructions: 'mention the kite colour' });

    expect(analysis.provenance).toContainEqual({
      step: 'instructions',
      source: 'no vision model configured',
      outcome: 'skipped',
      durationMs: 0,
    });
    // The local analyser named the image all the same.
    expect(nameImage(analysis, context).words.length).toBeGreaterThan(0);
  });

  it('records nothing of the kind when there were no instructions', async () => {
    const analyzer = createImageAnalyzer(local, { steps: new Set(['pixels'] as const), llmTimeoutMs: 0 });
    for (const instructions of [null, undefined, '   ']) {
      const analysis = await analyzer.analyze(kite, { ...context, instructions });
      expect(analysis.provenance.map((record) => record.outcome)).not.toContain('skipped');
    }
  });
});
