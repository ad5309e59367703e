import type { Multipart } from '@fastify/multipart';
import { AppError } from '@renamer/contracts';
import type { FastifyRequest } from 'fastify';

const PAYLOAD_TOO_LARGE = 413;

/**
 * The parts of a multipart request, and the one place that says which failures were the body's. The
 * parser fails with untyped errors (busboy's "Multipart: Boundary not found", "Unexpected end of multipart
 * data", "Part terminated early…") or with @fastify/multipart's own (a JSON field that is not JSON), either
 * while the parts are iterated or while a file's bytes are read; `asClientError` turns each of them into
 * 400 `validation_failed` and leaves every other error alone. The parser's size limits keep their 413.
 */
export function readMultipartBody(request: FastifyRequest) {
  const parserErrors = new WeakSet<object>();
  let partsSeen = 0;

  async function* parts(): AsyncGenerator<Multipart> {
    try {
      for await (const part of request.parts()) {
        partsSeen += 1;
        if (part.type === 'file') {
          // The parser may have failed this file's stream already, while an earlier part was being read.
          if (part.file.errored) parserErrors.add(part.file.errored);
          part.file.once('error', (error) => parserErrors.add(error));
        }
        yield part;
      }
    } catch (error) {
      if (error instanceof Object) parserErrors.add(error);
      throw error;
    }
  }

  function detail(error: Error & { statusCode?: number }): string {
    if (error.statusCode) return `The multipart body is not valid: ${error.message}.`;
    if (!/;\s*boundary=/i.test(request.headers['content-type'] ?? '')) {
      return 'The Content-Type header must name the boundary: multipart/form-data; boundary=<the delimiter the body uses>.';
    }
    if (partsSeen === 0) return 'The body holds no part delimited by the boundary that the Content-Type header names.';
    return 'The body ended in the middle of a part, before the closing boundary: send the whole form again.';
  }

  return {
    parts: parts(),
    asClientError(error: unknown): unknown {
      if (!(error instanceof Error) || !parserErrors.has(error)) return error;
      if ((error as { statusCode?: number }).statusCode === PAYLOAD_TOO_LARGE) return error;
      return new AppError('validation_failed', detail(error));
    },
  };
}
