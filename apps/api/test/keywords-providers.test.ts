import { createLocalKeywordProvider, type KeywordProvider } from '@renamer/keywords';
import { type FakeOpenAiServer, startFakeOpenAiServer } from '@renamer/llm/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeywordService } from '../src/services/keywords/keyword-service';
import { type ApiStack, getJson, startApiStack } from './support/api-stack';

const MODEL_ANSWER = {
  keywords: ['ceramic mug'],
  longTail: ['speckled ceramic mug with glaze'],
  related: ['pottery'],
  categories: [{ category: 'tableware', keywords: ['ceramic mug'] }],
};

/** The service with `first` before the local engine, and the warnings it logs. */
function serviceWith(first: KeywordProvider) {
  const warnings: { details: object; message: string }[] = [];
  const service = createKeywordService({
    providers: [first, createLocalKeywordProvider()],
    images: { findByIdForUser: async () => null },
    batches: { findById: async () => null },
    log: { warn: (details, message) => warnings.push({ details, message }) },
  });
  return { service, warnings };
}

const provider = (answers: Pick<KeywordProvider, 'enhance' | 'suggest'>): KeywordProvider => ({
  name: 'llm',
  ...answers,
});

describe('the keyword service’s providers, in order', () => {
  it('lets the first provider speak when its answer fits the contract', async () => {
    const { service, warnings } = serviceWith(
      provider({ enhance: async () => MODEL_ANSWER, suggest: async () => ['pottery'] }),
    );
    expect(await service.enhance({ keywords: ['ceramic mug'], locale: 'en' })).toEqual({
      ...MODEL_ANSWER,
      provider: 'llm',
    });
    expect(await service.suggest('user', { text: 'mugs', locale: 'en' })).toEqual({ suggestions: ['pottery'] });
    expect(warnings).toEqual([]);
  });

  it('falls back to the local engine when the first one throws, and says so in a warning', async () => {
    const failure = new Error('the model is down');
    const { service, warnings } = serviceWith(
      provider({
        enhance: async () => {
          throw failure;
        },
        suggest: async () => {
          throw failure;
        },
      }),
    );
    const enhanced = await service.enhance({ keywords: ['ceramic mug'], locale: 'en' });
    expect(enhanced.provider).toBe('local');
    expect(enhanced.categories).toEqual([{ category: 'kitchen and dining', keywords: ['ceramic mug'] }]);
    expect(await service.suggest('user', { text: 'Blue mugs', locale: 'en' })).toEqual({
      suggestions: ['blue mugs', 'mug'],
    });
    expect(warnings).toEqual([
      { details: { err: failure, provider: 'llm' }, message: expect.stringContaining('keyword provider failed') },
      { details: { err: failure, provider: 'llm' }, message: expect.stringContaining('keyword provider failed') },
    ]);
  });

  it('falls back when the first one’s answer breaks the contract (markup, too long, wrong shape)', async () => {
    for (const bad of [
      { ...MODEL_ANSWER, related: ['<script>alert(1)</script>'] },
      { ...MODEL_ANSWER, longTail: ['x'.repeat(61)] },
      { keywords: 'ceramic mug' },
    ]) {
      const { service, warnings } = serviceWith(
        provider({ enhance: async () => bad as never, suggest: async () => ['<b>mug</b>'] }),
      );
      expect((await service.enhance({ keywords: ['ceramic mug'], locale: 'en' })).provider).toBe('local');
      expect((await service.suggest('user', { text: 'mugs', locale: 'en' })).suggestions).toEqual(['mug']);
      expect(warnings).toHaveLength(2);
    }
  });
});

describe('the API with a model configured (an OpenAI-compatible server)', () => {
  let stack: ApiStack;
  let api: { url: string };
  let model: FakeOpenAiServer;

  beforeAll(async () => {
    model = await startFakeOpenAiServer();
    stack = await startApiStack('keywords-llm', {
      LLM_BASE_URL: model.url,
      LLM_MODEL: 'test-model',
      LLM_MAX_RETRIES: '0',
      LLM_TIMEOUT_MS: '2000',
    });
    api = await stack.startApi();
  }, 60_000);

  afterAll(async () => {
    await stack?.close();
    await model?.close();
  });

  const enhance = async (key: string) =>
    getJson(`${api.url}/api/keywords/enhance`, key, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ keywords: ['Ceramic Mug'], context: 'for a coffee shop' }),
    });

  it('answers with the model, which is sent the normalised keywords and the context', async () => {
    const user = await stack.createUser();
    model.reply({ content: JSON.stringify(MODEL_ANSWER) });
    const { status, body } = await enhance(user.key);
    expect(status).toBe(200);
    expect(body).toEqual({ ...MODEL_ANSWER, provider: 'llm' });
    const sent = model.requests.at(-1)!.messages.at(-1)!.content as string;
    expect(JSON.parse(sent)).toEqual({ keywords: ['ceramic mug'], context: 'for a coffee shop' });
  });

  it('falls back to the local engine when the model fails or answers nonsense', async () => {
    const user = await stack.createUser();
    for (const reply of [{ status: 500 }, { content: 'I am not JSON' }, { content: '{"keywords": []}' }]) {
      model.reply(reply);
      const { status, body } = await enhance(user.key);
      expect(status).toBe(200);
      expect(body).toMatchObject({
        keywords: ['ceramic mug'],
        provider: 'local',
        categories: [{ category: 'kitchen and dining', keywords: ['ceramic mug'] }],
      });
      expect(body!.longTail).toContain('ceramic coffee mug');
    }
  });

  it('stops the model call when the client leaves, so the next request gets the slot at once', async () => {
    const user = await stack.createUser();
    // One call to the model at a time, and a first answer that would take 8 s.
    const single = await stack.startApi({ LLM_CONCURRENCY: '1', LLM_TIMEOUT_MS: '20000' });
    model.reply({ content: JSON.stringify(MODEL_ANSWER), delayMs: 8_000 }, { content: JSON.stringify(MODEL_ANSWER) });
    const leaving = new AbortController();
    const first = fetch(`${single.url}/api/keywords/enhance`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ keywords: ['ceramic mug'] }),
      signal: leaving.signal,
    }).catch((error: Error) => error.name);
    const asked = model.requests.length;
    while (model.requests.length === asked) await new Promise((resolve) => setTimeout(resolve, 20));
    leaving.abort();
    expect(await first).toBe('AbortError');

    const started = Date.now();
    const { body } = await getJson(`${single.url}/api/keywords/enhance`, user.key, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ keywords: ['ceramic mug'] }),
    });
    expect(body).toMatchObject({ provider: 'llm' });
    expect(Date.now() - started).toBeLessThan(4_000);
  });
});
