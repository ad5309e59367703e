import type { Readable } from 'node:stream';
import { AppError, UploadFields } from '@renamer/contracts';
import type { FastifyRequest } from 'fastify';
import type { IncomingFile, IncomingUpload } from '../../services/batches/upload-service';

/** The form field whose parts are the upload's files (`UploadForm`). */
const FILES_FIELD = 'files';
const PAYLOAD_TOO_LARGE = 413;
const ignore = () => undefined;

export interface MultipartUploadOptions {
  /** Called with a file part's size once its bytes have been read to the end. */
  onFileRead?: (bytes: number) => void;
}

/**
 * `POST /api/batch`'s multipart body as the upload service takes it: each part of the `files` field as a plain
 * file (`{ filename, declaredType, stream }`), in the order sent, and the string fields as the typed form
 * (`UploadFields`) once the parts have ended. File parts of other fields are read past.
 *
 * This is also the one place that says which failures were the body's. The parser fails with untyped errors
 * (busboy's "Multipart: Boundary not found", "Unexpected end of multipart data", "Part terminated early…") or with
 * @fastify/multipart's own (a JSON field that is not JSON), either while the parts are iterated or while a file's
 * bytes are read; each becomes 400 `validation_failed` where it arises, so the service sees an AppError like any of
 * its own. The parser's size limits keep their 413.
 */
export function readMultipartUpload(request: FastifyRequest, options: MultipartUploadOptions = {}): IncomingUpload {
  const values: Record<string, string> = {};
  let partsSeen = 0;
  let ended = false;

  function detail(error: Error & { statusCode?: number }): string {
    if (error.statusCode) return `The multipart body is not valid: ${error.message}.`;
    if (!/;\s*boundary=/i.test(request.headers['content-type'] ?? '')) {
      return 'The Content-Type header must name the boundary: multipart/form-data; boundary=<the delimiter the body uses>.';
    }
    if (partsSeen === 0) return 'The body holds no part delimited by the boundary that the Content-Type header names.';
    return 'The body ended in the middle of a part, before the closing boundary: send the whole form again.';
  }

  function asClientError(error: unknown): unknown {
    if (!(error instanceof Error) || error instanceof AppError) return error;
    if ((error as { statusCode?: number }).statusCode === PAYLOAD_TOO_LARGE) return error;
    return new AppError('validation_failed', detail(error));
  }

  async function* bytesOf(file: Readable): AsyncGenerator<Uint8Array> {
    let bytes = 0;
    try {
      for await (const chunk of file) {
        bytes += (chunk as Uint8Array).length;
        yield chunk;
      }
    } catch (error) {
      throw asClientError(error);
    }
    options.onFileRead?.(bytes);
  }

  async function* files(): AsyncGenerator<IncomingFile> {
    try {
      for await (const part of request.parts()) {
        partsSeen += 1;
        if (part.type === 'field') {
          if (typeof part.value === 'string') values[part.fieldname] = part.value;
          continue;
        }
        // The parser may fail this file's stream before it is read (while an earlier file is): the error is
        // answered when it is read, or when the parts are iterated, never as an unhandled event.
        part.file.on('error', ignore);
        if (part.fieldname !== FILES_FIELD) {
          part.file.resume();
          continue;
        }
        yield { filename: part.filename, declaredType: part.mimetype, stream: bytesOf(part.file) };
      }
      ended = true;
    } catch (error) {
      throw asClientError(error);
    }
  }

  return {
    files: files(),
    fields() {
      if (!ended) throw new Error('the upload’s fields are known once its files have been read');
      const parsed = UploadFields.safeParse(values);
      if (parsed.success) return parsed.data;
      throw new AppError(
        'validation_failed',
        'The upload fields are not valid.',
        parsed.error.issues.map((issue) => ({ path: `body.${issue.path.join('.')}`, message: issue.message })),
      );
    },
  };
}
