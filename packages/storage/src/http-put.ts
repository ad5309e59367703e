import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { exactSize } from './exact-size';

const MAX_ERROR_BODY = 64 * 1024;

/** Streams `body` to a presigned PUT URL with a known Content-Length; resolves to the ETag. */
export async function putToPresignedUrl(
  url: string,
  body: Readable,
  size: number,
  contentType: string | undefined,
): Promise<string | undefined> {
  const target = new URL(url);
  const headers: http.OutgoingHttpHeaders = { 'content-length': size };
  if (contentType !== undefined) headers['content-type'] = contentType;
  const request = (target.protocol === 'https:' ? https : http).request(target, { method: 'PUT', headers });
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    request.once('response', resolve);
    request.once('error', reject);
  });
  // The upload's own failure is the one to report; this keeps the response's from going unhandled.
  response.catch(() => undefined);

  await pipeline(body, exactSize(size), request);
  const answer = await response;
  if (answer.statusCode === 200) {
    answer.resume();
    return answer.headers.etag?.replace(/"/g, '');
  }
  throw new Error(`S3 refused the upload: ${answer.statusCode} ${describeS3Error(await readCapped(answer))}`);
}

async function readCapped(stream: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of stream) {
    text += chunk;
    if (text.length > MAX_ERROR_BODY) {
      stream.destroy();
      break;
    }
  }
  return text;
}

function describeS3Error(xml: string): string {
  const field = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1];
  return [field('Code'), field('Message')].filter(Boolean).join(': ');
}
