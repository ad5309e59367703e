import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { llmConfigFromEnv, llmEnv } from '../src/env';

const parse = (variables: Record<string, string>) => z.object(llmEnv).parse(variables);

describe('llmConfigFromEnv', () => {
  it('is null when nothing is configured, so the provider is off', () => {
    expect(llmConfigFromEnv(parse({}))).toBeNull();
  });

  it('treats empty values as unset, as compose files write them', () => {
    expect(llmConfigFromEnv(parse({ LLM_BASE_URL: '', LLM_MODEL: '', LLM_API_KEY: '' }))).toBeNull();
  });

  it('reads a configuration, with defaults for the limits and no key for a local server', () => {
    const config = llmConfigFromEnv(parse({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1', LLM_MODEL: 'qwen2.5vl:7b' }));
    expect(config).toEqual({
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: undefined,
      model: 'qwen2.5vl:7b',
      timeoutMs: 30_000,
      maxRetries: 2,
      concurrency: 2,
      responseFormat: 'json_object',
    });
  });

  it('takes the limits from their variables', () => {
    const config = llmConfigFromEnv(
      parse({
        LLM_BASE_URL: 'https://api.openai.com/v1',
        LLM_API_KEY: 'sk-test',
        LLM_MODEL: 'gpt-4o-mini',
        LLM_TIMEOUT_MS: '5000',
        LLM_MAX_RETRIES: '0',
        LLM_CONCURRENCY: '8',
        LLM_RESPONSE_FORMAT: 'text',
      }),
    );
    expect(config).toMatchObject({ apiKey: 'sk-test', timeoutMs: 5000, maxRetries: 0, concurrency: 8 });
    expect(config?.responseFormat).toBe('text');
  });

  it('stops on half a configuration, naming the missing variable', () => {
    expect(() => llmConfigFromEnv(parse({ LLM_BASE_URL: 'http://localhost:1234/v1' }))).toThrow(/LLM_MODEL/);
    expect(() => llmConfigFromEnv(parse({ LLM_MODEL: 'gpt-4o-mini' }))).toThrow(/LLM_BASE_URL/);
  });

  it('refuses a base URL that is not http or https, and limits out of range', () => {
    expect(() => parse({ LLM_BASE_URL: 'ftp://example.com/v1' })).toThrow(/LLM_BASE_URL/);
    expect(() => parse({ LLM_CONCURRENCY: '0' })).toThrow(/LLM_CONCURRENCY/);
    expect(() => parse({ LLM_TIMEOUT_MS: 'soon' })).toThrow(/LLM_TIMEOUT_MS/);
  });
});
