import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LlmConfig } from '../src/env';
import { LlmError } from '../src/errors';
import { llmKeywordProvider } from '../src/keyword-provider';
import { createLlmProvider } from '../src/provider';
import { type FakeOpenAiServer, startFakeOpenAiServer } from '../src/testing';

let server: FakeOpenAiServer;
beforeEach(async () => {
  server = await startFakeOpenAiServer();
});
afterEach(() => server.close());

const configFor = (): LlmConfig => ({
  baseUrl: server.url,
  apiKey: 'sk-test-keywords',
  model: 'text-test-model',
  timeoutMs: 5000,
  maxRetries: 0,
  concurrency: 2,
  responseFormat: 'json_object',
});

const enhanced = {
  keywords: ['Ceramic Mug', 'ceramic mug', 'coffee'],
  longTail: ['handmade blue ceramic mug', 'ceramic mug for coffee shops'],
  related: ['stoneware', 'coffee cup'],
  categories: [{ category: 'Kitchenware', keywords: ['ceramic mug', 'coffee cup'] }],
};

const messageOf = (role: string) => server.requests[0]!.messages.find((message) => message.role === role)!.content;
const userMessage = () => JSON.parse(messageOf('user') as string);

describe('enhanceKeywords', () => {
  it('sends the keywords and the context, and reads a tidy answer', async () => {
    server.reply({ content: JSON.stringify(enhanced) });
    const provider = createLlmProvider(configFor());

    const answer = await provider.enhanceKeywords({
      keywords: ['ceramic mug', 'coffee'],
      context: 'a coffee shop',
      locale: 'en',
    });

    expect(answer).toEqual({
      keywords: ['ceramic mug', 'coffee'],
      longTail: ['handmade blue ceramic mug', 'ceramic mug for coffee shops'],
      related: ['stoneware', 'coffee cup'],
      categories: [{ category: 'kitchenware', keywords: ['ceramic mug', 'coffee cup'] }],
    });
    expect(server.requests[0]?.model).toBe('text-test-model');
    expect(userMessage()).toEqual({ keywords: ['ceramic mug', 'coffee'], context: 'a coffee shop' });
  });

  it('asks for the person’s language', async () => {
    server.reply({ content: JSON.stringify(enhanced) });
    await createLlmProvider(configFor()).enhanceKeywords({ keywords: ['tasse'], locale: 'de-CH' });

    expect(messageOf('system')).toContain('Swiss High German (de-CH)');
  });

  it.each([
    ['no keywords', { ...enhanced, keywords: [] }],
    ['a keyword of one character', { ...enhanced, keywords: ['a'] }],
    ['a keyword over 60 characters', { ...enhanced, related: ['x'.repeat(61)] }],
    ['markup', { ...enhanced, longTail: ['<a href="x">mug</a>'] }],
    ['more than 20 related terms', { ...enhanced, related: Array.from({ length: 21 }, (_, i) => `term ${i}`) }],
    ['a category without keywords', { ...enhanced, categories: [{ category: 'kitchen', keywords: [] }] }],
    ['a missing field', { keywords: enhanced.keywords }],
  ])('refuses an answer with %s', async (_, answer) => {
    server.reply({ content: JSON.stringify(answer) });

    const error = await createLlmProvider(configFor())
      .enhanceKeywords({ keywords: ['mug'], locale: 'en' })
      .catch((reason: unknown) => reason);

    expect(error).toBeInstanceOf(LlmError);
    expect(error).toMatchObject({ failure: 'invalid_answer', operation: 'enhanceKeywords' });
  });
});

describe('suggestKeywords', () => {
  it('sends the tags and the text, and answers the keywords', async () => {
    server.reply({ content: JSON.stringify({ keywords: ['Sunset', 'beach', 'orange sky', 'beach'] }) });
    const provider = createLlmProvider(configFor());

    const keywords = await provider.suggestKeywords({
      tags: [
        { label: 'sunset', confidence: 0.81234 },
        { label: 'beach', confidence: 0.7 },
      ],
      text: 'our summer shop',
      locale: 'en',
    });

    expect(keywords).toEqual(['sunset', 'beach', 'orange sky']);
    expect(userMessage()).toEqual({
      tags: [
        { label: 'sunset', confidence: 0.81 },
        { label: 'beach', confidence: 0.7 },
      ],
      text: 'our summer shop',
    });
  });

  it('refuses an answer that is a bare list', async () => {
    server.reply({ content: JSON.stringify(['sunset']) });

    const error = await createLlmProvider(configFor())
      .suggestKeywords({ tags: [{ label: 'sunset', confidence: 0.8 }], locale: 'en' })
      .catch((reason: unknown) => reason);

    expect(error).toMatchObject({ failure: 'invalid_answer', operation: 'suggestKeywords' });
  });
});

describe('llmKeywordProvider', () => {
  it('answers the API’s keyword provider calls through the model, under the name llm', async () => {
    server.reply(
      { content: JSON.stringify(enhanced) },
      { content: JSON.stringify({ keywords: ['ceramic mug', 'coffee cup'] }) },
    );
    const keywords = llmKeywordProvider(createLlmProvider(configFor()));

    expect(keywords.name).toBe('llm');
    expect((await keywords.enhance({ keywords: ['mug'], locale: 'en' })).related).toEqual(['stoneware', 'coffee cup']);
    expect(await keywords.suggest({ tags: [], text: 'mugs', locale: 'en' })).toEqual(['ceramic mug', 'coffee cup']);
    expect(server.requests).toHaveLength(2);
  });
});
