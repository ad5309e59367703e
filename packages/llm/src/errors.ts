import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';

export type LlmOperation = 'describeImage' | 'enhanceKeywords' | 'suggestKeywords';
/** Why a call failed: the callers fall back to the local analyser whatever it is; the logs say which. */
export type LlmFailure =
  | 'timeout'
  | 'aborted'
  | 'rate_limited'
  | 'http'
  | 'connection'
  | 'invalid_answer'
  | 'unexpected';

/** The tokens one call used, as the server reported them (OpenAI's `usage`). */
export interface LlmUsage {
  prompt: number;
  completion: number;
}

/** A failed call to the model. The message names the operation, the endpoint and the cause, never the API key. */
export class LlmError extends Error {
  override name = 'LlmError';
  /** Set when the model answered (and its tokens are billed) but the answer was not usable. */
  usage?: LlmUsage;
  constructor(
    readonly operation: LlmOperation,
    readonly failure: LlmFailure,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The model answered, but not with what was asked. */
export class LlmAnswerError extends Error {
  override name = 'LlmAnswerError';
  constructor(
    message: string,
    readonly usage?: LlmUsage,
  ) {
    super(message);
  }
}

export interface FailureContext {
  operation: LlmOperation;
  model: string;
  baseUrl: string;
  apiKey: string | undefined;
  timeoutMs: number;
  /** Aborted when the call's time is up. */
  deadline: AbortSignal;
  /** The caller's own signal. */
  signal: AbortSignal | undefined;
}

const SERVER_MESSAGE_CHARS = 200;

/**
 * Turns whatever a call threw into an LlmError. The SDK's error is not kept as `cause`: its body and headers
 * are the server's to fill, and a server may echo the key (OpenAI masks it; others need not).
 */
export function toLlmError(error: unknown, context: FailureContext): LlmError {
  const { operation, model, baseUrl } = context;
  const fail = (failure: LlmFailure, why: string, status?: number) =>
    new LlmError(
      operation,
      failure,
      redact(`LLM ${operation} with model ${model} at ${baseUrl} failed: ${why}`, context.apiKey),
      status,
    );

  if (error instanceof LlmAnswerError) {
    const failure = fail('invalid_answer', error.message);
    if (error.usage) failure.usage = error.usage;
    return failure;
  }
  if (context.signal?.aborted) return fail('aborted', 'cancelled by the caller');
  if (context.deadline.aborted || error instanceof APIConnectionTimeoutError) {
    return fail('timeout', `no answer within ${context.timeoutMs} ms`);
  }
  if (error instanceof APIConnectionError) return fail('connection', 'could not connect');
  if (error instanceof APIError && error.status !== undefined) {
    const said = error.message.slice(0, SERVER_MESSAGE_CHARS);
    return fail(error.status === 429 ? 'rate_limited' : 'http', `the server answered ${said}`, error.status);
  }
  return fail('unexpected', error instanceof Error ? error.message.slice(0, SERVER_MESSAGE_CHARS) : String(error));
}

function redact(text: string, secret: string | undefined): string {
  return secret ? text.replaceAll(secret, '[redacted]') : text;
}
