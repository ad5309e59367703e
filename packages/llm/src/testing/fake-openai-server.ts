import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** What the server answers to one request: a completion with this content, or an error status. */
export type FakeReply =
  | { content: string; delayMs?: number; usage?: FakeUsage | null }
  | { status: number; retryAfterSeconds?: number; delayMs?: number };

/**
 * The token counts a completion reports. By default they are estimated from the request and the answer (about four
 * characters a token); `null` sends no `usage`, as some OpenAI-compatible servers do.
 */
export interface FakeUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

/** A chat message as sent: `content` is a string or a list of parts (`text`, `image_url`). */
export interface RecordedMessage {
  role: string;
  content: unknown;
}

export interface RecordedRequest {
  model: string;
  messages: RecordedMessage[];
  responseFormat: unknown;
  authorization: string | undefined;
  body: Record<string, unknown>;
}

export interface FakeOpenAiServer {
  /** The base URL to give the SDK, ending in `/v1`. */
  url: string;
  /** Every chat-completions request received, in order. */
  requests: RecordedRequest[];
  /** The most requests that were being answered at the same moment. */
  readonly maxInFlight: number;
  /** Scripts the answers: each request takes the next reply; the last one answers every later request. */
  reply(...replies: FakeReply[]): void;
  close(): Promise<void>;
}

const ERRORS: Record<number, { type: string; code: string | null; message: string }> = {
  400: { type: 'invalid_request_error', code: null, message: 'The request body is not a chat completion request.' },
  401: { type: 'invalid_request_error', code: 'invalid_api_key', message: 'Incorrect API key provided.' },
  404: { type: 'invalid_request_error', code: 'unknown_url', message: 'Unknown request URL.' },
  429: { type: 'requests', code: 'rate_limit_exceeded', message: 'Rate limit reached. Please try again later.' },
  500: { type: 'server_error', code: null, message: 'The server had an error while processing your request.' },
};

/**
 * An OpenAI-compatible `POST /v1/chat/completions` on a free loopback port, answering as scripted and recording
 * what it was sent. Unlike OpenAI, its 401 echoes the whole key, so a test can catch a client that repeats it.
 */
export async function startFakeOpenAiServer(): Promise<FakeOpenAiServer> {
  let script: FakeReply[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let completions = 0;
  const requests: RecordedRequest[] = [];

  const server = createServer(async (req, res) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const gone = new AbortController();
    res.on('close', () => {
      inFlight -= 1;
      gone.abort();
    });
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return sendError(res, 404);
    const body = await readJson(req).catch(() => null);
    if (!body || typeof body.model !== 'string' || !isMessageList(body.messages)) return sendError(res, 400);
    const authorization = req.headers.authorization;
    requests.push({
      model: body.model,
      messages: body.messages,
      responseFormat: body.response_format,
      authorization,
      body,
    });

    const next = script.length > 1 ? script.shift() : script[0];
    if (!next) return sendError(res, 500);
    if (next.delayMs) {
      const waited = await sleep(next.delayMs, true, { signal: gone.signal }).catch(() => false);
      if (!waited) return;
    }
    if ('status' in next) {
      const key = authorization?.replace(/^Bearer /, '');
      const message = next.status === 401 ? `Incorrect API key provided: ${key}.` : undefined;
      return sendError(res, next.status, { retryAfterSeconds: next.retryAfterSeconds, message });
    }
    completions += 1;
    const usage =
      next.usage === undefined
        ? {
            prompt_tokens: Math.ceil(JSON.stringify(body.messages).length / 4),
            completion_tokens: Math.ceil(next.content.length / 4),
          }
        : next.usage;
    sendJson(res, 200, {
      id: `chatcmpl-fake${completions}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: next.content, refusal: null },
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
      ...(usage && { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } }),
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    get maxInFlight() {
      return maxInFlight;
    },
    reply(...replies) {
      script = [...replies];
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

function isMessageList(value: unknown): value is RecordedMessage[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((message) => typeof message === 'object' && message !== null && typeof message.role === 'string')
  );
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown> | null> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function sendError(
  res: ServerResponse,
  status: number,
  options: { retryAfterSeconds?: number | undefined; message?: string | undefined } = {},
): void {
  const known = ERRORS[status] ?? { type: 'api_error', code: null, message: `Error ${status}.` };
  if (options.retryAfterSeconds !== undefined) res.setHeader('retry-after', String(options.retryAfterSeconds));
  sendJson(res, status, {
    error: { message: options.message ?? known.message, type: known.type, param: null, code: known.code },
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
