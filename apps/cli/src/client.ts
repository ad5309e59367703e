import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Problem, ProblemFieldError } from '@renamer/contracts';
import type { z } from 'zod';
import type { Connection } from './config';
import { CliError } from './errors';

/** A rate-limited request waits as long as the server asks (if that is short) and is sent again. */
const RATE_LIMIT_RETRIES = 3;
const MAX_RETRY_AFTER_S = 60;

/** A problem document the API answered: its detail, its code, and its per-field (or per-file) errors. */
export class ApiError extends CliError {
  readonly errors: ProblemFieldError[];
  constructor(
    problem: Partial<Problem>,
    readonly status: number,
  ) {
    super(problem.detail ?? `the server answered ${status}`, undefined, problem.code ?? `http_${status}`);
    this.errors = problem.errors ?? [];
  }
}

/**
 * The public API with an API key: JSON in, JSON out, each answer parsed with the contract's schema; a problem
 * document becomes a CliError carrying its detail and code.
 */
export class ApiClient {
  constructor(readonly connection: Connection) {}

  async request<S extends z.ZodType>(
    path: string,
    schema: S,
    init: { method?: string; json?: unknown; body?: FormData } = {},
  ): Promise<z.infer<S>> {
    const response = await this.send(path, init);
    return schema.parse(response.status === 204 ? null : await response.json());
  }

  /** Streams a URL (a signed download link, or an API path) to a file. */
  async download(url: string, path: string): Promise<void> {
    const response = await this.send(url, {});
    if (!response.body) throw new CliError(`the download from ${url} had no body`);
    await pipeline(
      Readable.fromWeb(response.body as import('node:stream/web').ReadableStream),
      createWriteStream(path),
    );
  }

  private async send(
    path: string,
    init: { method?: string; json?: unknown; body?: FormData },
    attempt = 0,
  ): Promise<Response> {
    const url = new URL(path, this.connection.server);
    const headers: Record<string, string> = {};
    // The key goes only to the server it belongs to, never to a storage host of a signed link.
    if (url.origin === new URL(this.connection.server).origin)
      headers.authorization = `Bearer ${this.connection.apiKey}`;
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(url, {
      method: init.method ?? 'GET',
      headers,
      body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
    }).catch((error: Error) => {
      throw new CliError(`cannot reach ${url.origin}: ${(error.cause as Error | undefined)?.message ?? error.message}`);
    });
    if (response.ok) return response;
    const retryAfter = Number(response.headers.get('retry-after'));
    if (response.status === 429 && attempt < RATE_LIMIT_RETRIES && retryAfter <= MAX_RETRY_AFTER_S) {
      await response.body?.cancel();
      await new Promise((resume) => setTimeout(resume, Math.max(1, retryAfter) * 1000));
      return this.send(path, init, attempt + 1);
    }
    const problem = (await response.json().catch(() => ({}))) as Partial<Problem>;
    throw new ApiError(problem, response.status);
  }
}
