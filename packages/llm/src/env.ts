import { z } from 'zod';

/** `LLM_API_KEY=` (an empty value, as compose files and `.env` templates write it) means unset. */
const optional = <S extends z.ZodType>(schema: S) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

/** Variables of the LLM provider. It is off unless `LLM_BASE_URL` and `LLM_MODEL` are both set. */
export const llmEnv = {
  /** Any OpenAI-compatible endpoint, up to and including `/v1`, e.g. `http://127.0.0.1:11434/v1` for Ollama. */
  LLM_BASE_URL: optional(z.url({ protocol: /^https?$/ })),
  /** Ollama, LM Studio and vLLM need none. */
  LLM_API_KEY: optional(z.string()),
  /** A model that accepts images, e.g. `gpt-4o-mini`, `qwen2.5vl:7b`. */
  LLM_MODEL: optional(z.string()),
  /** The longest one call may take, retries and waits for `Retry-After` included. */
  LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  /** Further attempts after a 408, 409, 429, 5xx or a failed connection, with exponential backoff. */
  LLM_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  /** Calls to the model at once in this process; more wait their turn. */
  LLM_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  /**
   * `json_object` asks the server for JSON mode (OpenAI, Ollama, vLLM, OpenRouter); `text` sends no
   * `response_format` and relies on the prompt (LM Studio answers 400 to `json_object`).
   */
  LLM_RESPONSE_FORMAT: z.enum(['json_object', 'text']).default('json_object'),
};

const llmEnvSchema = z.object(llmEnv);
export type LlmEnv = z.infer<typeof llmEnvSchema>;

/** The LLM_* variables of an environment alone, checked (scripts outside the services: the naming benchmark). */
export function parseLlmEnv(env: Record<string, string | undefined>): LlmEnv {
  return llmEnvSchema.parse(env);
}

export interface LlmConfig {
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
  maxRetries: number;
  concurrency: number;
  responseFormat: LlmEnv['LLM_RESPONSE_FORMAT'];
}

/** The provider's configuration, or null when it is off. Half a configuration is a mistake worth stopping for. */
export function llmConfigFromEnv(env: LlmEnv): LlmConfig | null {
  const { LLM_BASE_URL: baseUrl, LLM_MODEL: model } = env;
  if (!baseUrl && !model) return null;
  if (!baseUrl) throw new Error('Invalid configuration:\n  LLM_BASE_URL: required when LLM_MODEL is set');
  if (!model) throw new Error('Invalid configuration:\n  LLM_MODEL: required when LLM_BASE_URL is set');
  return {
    baseUrl,
    apiKey: env.LLM_API_KEY,
    model,
    timeoutMs: env.LLM_TIMEOUT_MS,
    maxRetries: env.LLM_MAX_RETRIES,
    concurrency: env.LLM_CONCURRENCY,
    responseFormat: env.LLM_RESPONSE_FORMAT,
  };
}
