import type { VisionTag } from '@renamer/contracts';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { z } from 'zod';
import { DescribeImageAnswer, describeIssues, EnhanceKeywordsAnswer, SuggestKeywordsAnswer } from './answers';
import type { LlmConfig } from './env';
import { LlmAnswerError, type LlmOperation, type LlmUsage, toLlmError } from './errors';
import { parseJsonObject } from './json-answer';
import {
  describeImageMessages,
  enhanceKeywordsMessages,
  type ImageSignals,
  type KeywordHints,
  type KeywordsToEnhance,
  suggestKeywordsMessages,
} from './prompts';
import { createSemaphore } from './semaphore';

export interface ImageDescription {
  titleWords: string[];
  tags: VisionTag[];
  altText: string;
  /** The tokens the call used; absent when the server reports none. */
  usage?: LlmUsage;
}

export interface EnhancedKeywords {
  keywords: string[];
  longTail: string[];
  related: string[];
  categories: { category: string; keywords: string[] }[];
}

export interface LlmProvider {
  readonly model: string;
  describeImage(input: { jpeg: Buffer; signals: ImageSignals }, signal?: AbortSignal): Promise<ImageDescription>;
  enhanceKeywords(input: KeywordsToEnhance, signal?: AbortSignal): Promise<EnhancedKeywords>;
  suggestKeywords(input: KeywordHints, signal?: AbortSignal): Promise<string[]>;
}

/** pino's Logger fits; so does `request.log`. */
export interface LlmLogger {
  debug(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/**
 * A model's own confidence is not calibrated like the local detectors'; below this the tag is left out. No vision
 * model could be run where this was written, so the value is a conservative choice, not a measurement.
 */
export const LLM_TAG_MIN_CONFIDENCE = 0.5;

/** Servers without keys (Ollama, LM Studio, vLLM) ignore the header, but the SDK refuses to start without one. */
const NO_KEY = 'no-key';

/**
 * The provider talks to any OpenAI-compatible chat-completions endpoint through the official SDK. Create one per
 * process: its concurrency cap is shared by every call made through it.
 */
export function createLlmProvider(config: LlmConfig, options: { logger?: LlmLogger } = {}): LlmProvider {
  const { logger } = options;
  const client = new OpenAI({
    baseURL: config.baseUrl,
    apiKey: config.apiKey ?? NO_KEY,
    // Passed explicitly so the SDK does not read OPENAI_* variables behind the service's env schema.
    organization: null,
    project: null,
    adminAPIKey: null,
    webhookSecret: null,
    timeout: config.timeoutMs,
    maxRetries: config.maxRetries,
    logLevel: logger ? 'info' : 'off',
    // The SDK's info lines are its retries ("… failed with status 429 - retrying, 2 attempts remaining").
    logger: {
      error: (message: string) => logger?.warn({ sdk: 'openai' }, message),
      warn: (message: string) => logger?.warn({ sdk: 'openai' }, message),
      info: (message: string) => logger?.debug({ sdk: 'openai' }, message),
      debug: () => {},
    },
  });
  const slots = createSemaphore(config.concurrency);

  async function ask<S extends z.ZodType>(
    operation: LlmOperation,
    messages: ChatCompletionMessageParam[],
    answer: S,
    signal: AbortSignal | undefined,
  ): Promise<{ answer: z.infer<S>; usage: LlmUsage | undefined }> {
    const started = Date.now();
    const deadline = new AbortController();
    let release: (() => void) | undefined;
    let timer: NodeJS.Timeout | undefined;
    try {
      release = await slots.acquire(signal);
      // The budget starts with the slot: time spent queueing behind other calls is the caller's signal's business.
      timer = setTimeout(() => deadline.abort(), config.timeoutMs);
      const stop = signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal;
      const request = client.chat.completions.create(
        {
          model: config.model,
          messages,
          ...(config.responseFormat === 'json_object' ? { response_format: { type: 'json_object' } } : {}),
        },
        { signal: stop },
      );
      const completion = await untilAborted(request, stop);
      const usage = usageOf(completion.usage);
      const content = completion.choices[0]?.message?.content;
      if (!content) throw new LlmAnswerError('the answer has no content', usage);
      const parsed = answer.safeParse(withUsage(() => parseJsonObject(content), usage));
      if (!parsed.success) {
        throw new LlmAnswerError(`the answer does not fit: ${describeIssues(parsed.error)}`, usage);
      }
      logger?.debug({ operation, model: config.model, ms: Date.now() - started, usage }, 'llm answered');
      return { answer: parsed.data, usage };
    } catch (error) {
      const failure = toLlmError(error, { ...config, operation, deadline: deadline.signal, signal });
      logger?.warn({ operation, failure: failure.failure, ms: Date.now() - started }, failure.message);
      throw failure;
    } finally {
      clearTimeout(timer);
      release?.();
    }
  }

  return {
    model: config.model,
    async describeImage({ jpeg, signals }, signal) {
      const { answer, usage } = await ask(
        'describeImage',
        describeImageMessages(jpeg, signals),
        DescribeImageAnswer,
        signal,
      );
      return {
        titleWords: answer.titleWords,
        tags: answer.tags
          .filter((tag) => tag.confidence >= LLM_TAG_MIN_CONFIDENCE)
          .map((tag) => ({ label: tag.label, confidence: tag.confidence, source: 'llm' as const })),
        altText: answer.altText,
        ...(usage && { usage }),
      };
    },
    async enhanceKeywords(input, signal) {
      return (await ask('enhanceKeywords', enhanceKeywordsMessages(input), EnhanceKeywordsAnswer, signal)).answer;
    },
    async suggestKeywords(input, signal) {
      const { answer } = await ask('suggestKeywords', suggestKeywordsMessages(input), SuggestKeywordsAnswer, signal);
      return answer.keywords;
    },
  };
}

/** The tokens of an answer that arrived stay with its error: they are billed all the same. */
function withUsage<T>(read: () => T, usage: LlmUsage | undefined): T {
  try {
    return read();
  } catch (error) {
    throw error instanceof LlmAnswerError ? new LlmAnswerError(error.message, usage) : error;
  }
}

/** OpenAI's `usage`, when the server sent one with whole non-negative counts (some servers leave it out). */
function usageOf(usage: { prompt_tokens?: unknown; completion_tokens?: unknown } | undefined): LlmUsage | undefined {
  const count = (value: unknown) => (Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : null);
  const prompt = count(usage?.prompt_tokens);
  const completion = count(usage?.completion_tokens);
  return prompt === null || completion === null ? undefined : { prompt, completion };
}

/**
 * The SDK sleeps between retries (for as long as `Retry-After` asks, without an upper bound) and does not watch
 * the signal while it sleeps; this settles the call the moment the signal aborts instead.
 */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}
