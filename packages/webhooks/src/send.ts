import type { LookupAddress, LookupOneOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { Webhook } from 'standardwebhooks';
import {
  type AddressPolicy,
  checkUrlShape,
  RefusedWebhookUrl,
  type Resolver,
  resolveAllowed,
  systemResolver,
} from './address-guard';

/** A 2xx within this long is delivered; anything slower is a failure (and tried again). */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** At most this much of an answer is read; the rest is not waited for. */
export const MAX_ANSWER_BYTES = 64 * 1024;

export interface SignedMessage {
  /** `webhook-id`: the same on every attempt of one message. */
  messageId: string;
  /** The JSON body, `{ type, timestamp, data }`. */
  body: string;
  secret: string;
  /** When this attempt signs it (`webhook-timestamp`), made anew for each attempt. */
  at: Date;
}

export interface AttemptResult {
  delivered: boolean;
  /** The endpoint's HTTP status, when it answered. */
  responseStatus: number | null;
  /** Why it did not count as delivered. */
  error: string | null;
}

/** The three Standard Webhooks headers for one attempt, signed by the reference library. */
export function signedHeaders({ messageId, body, secret, at }: SignedMessage): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': new Webhook(secret).sign(messageId, new Date(timestamp * 1000), body),
  };
}

export interface SendOptions extends AddressPolicy {
  resolve?: Resolver;
  timeoutMs?: number;
}

/**
 * POSTs one signed message. The host is resolved by the guard and the connection goes to an address it
 * allowed (the custom `lookup` pins it, so a second resolution cannot swap in another); redirects are never
 * followed (a 3xx is a failure), the whole attempt is bounded by the timeout, and at most MAX_ANSWER_BYTES of
 * the answer are read.
 */
export async function sendMessage(url: string, message: SignedMessage, options: SendOptions): Promise<AttemptResult> {
  let target: URL;
  let addresses: { address: string; family: number }[];
  try {
    target = checkUrlShape(url, options);
    addresses = await resolveAllowed(target, options, options.resolve ?? systemResolver);
  } catch (error) {
    const reason = error instanceof RefusedWebhookUrl ? error.message : `resolving failed: ${String(error)}`;
    return { delivered: false, responseStatus: null, error: reason };
  }
  const pinned = addresses[0]!;
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(result);
    };
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Renamer-Webhooks/1',
          ...signedHeaders(message),
        },
        lookup: ((
          _hostname: string,
          opts: LookupOneOptions & { all?: boolean },
          callback: (...args: unknown[]) => void,
        ) => {
          if (opts?.all) callback(null, [pinned] satisfies LookupAddress[]);
          else callback(null, pinned.address, pinned.family);
        }) as never,
        agent: false,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) done();
        });
        const done = () => {
          const delivered = status >= 200 && status < 300;
          finish({
            delivered,
            responseStatus: status,
            error: delivered
              ? null
              : status >= 300 && status < 400
                ? `answered ${status}: redirects are not followed`
                : `answered ${status}`,
          });
        };
        response.on('end', done);
        response.on('error', done);
      },
    );
    const timer = setTimeout(
      () => finish({ delivered: false, responseStatus: null, error: `no answer within ${timeoutMs / 1000} s` }),
      timeoutMs,
    );
    request.on('error', (error) => finish({ delivered: false, responseStatus: null, error: error.message }));
    request.end(message.body);
  });
}
