import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';
import qs from 'qs';

/** A Stripe object as the API returns it: an `id`, an `object` kind, and its fields in snake_case. */
export type StripeObject = { id: string; object: string } & Record<string, unknown>;

/** One request as the SDK sent it: form-encoded parameters decoded with Stripe's bracket notation. */
export interface FakeStripeRequest {
  method: string;
  path: string;
  /** The `:name` segments of the route's pattern. */
  params: Record<string, string>;
  /** The body's parameters (POST) or the query's (GET, DELETE). */
  body: Record<string, unknown>;
  idempotencyKey: string | undefined;
}

export interface FakeStripeAnswer {
  status?: number;
  body: unknown;
}

export interface FakeStripeRoute {
  method: 'GET' | 'POST' | 'DELETE';
  /** `/v1/customers/:id`: literal segments and named ones. */
  pattern: string;
  handle(request: FakeStripeRequest, store: FakeStripeStore): FakeStripeAnswer | Promise<FakeStripeAnswer>;
}

/** What Stripe answers to a request it refuses, with its status. */
export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: 'invalid_request_error' | 'card_error' | 'api_error' | 'idempotency_error',
    message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

/** The server's objects by kind (`customer`, `subscription`, …), and its clock (Unix seconds, settable). */
export class FakeStripeStore {
  private readonly kinds = new Map<string, Map<string, StripeObject>>();
  private clockOffsetSeconds = 0;

  /** Stripe's time: the wall clock plus whatever `advanceClock` added (test clocks, period ends). */
  now(): number {
    return Math.floor(Date.now() / 1000) + this.clockOffsetSeconds;
  }

  advanceClock(seconds: number): void {
    this.clockOffsetSeconds += seconds;
  }

  /** Creates an object with a fresh id of Stripe's shape (`cus_…`, `sub_…`) and its `created` time. */
  create(kind: string, prefix: string, fields: Record<string, unknown>): StripeObject {
    const object: StripeObject = {
      id: `${prefix}_${randomBytes(12).toString('base64url')}`,
      object: kind,
      created: this.now(),
      livemode: false,
      ...fields,
    };
    this.objectsOf(kind).set(object.id, object);
    return object;
  }

  get(kind: string, id: string): StripeObject {
    const object = this.objectsOf(kind).get(id);
    if (!object) throw new StripeApiError(404, 'invalid_request_error', `No such ${kind}: '${id}'`, 'resource_missing');
    return object;
  }

  find(kind: string, id: string): StripeObject | undefined {
    return this.objectsOf(kind).get(id);
  }

  update(kind: string, id: string, fields: Record<string, unknown>): StripeObject {
    return Object.assign(this.get(kind, id), fields);
  }

  list(kind: string, where: (object: StripeObject) => boolean = () => true): StripeObject[] {
    return [...this.objectsOf(kind).values()].filter(where).sort((a, b) => Number(b.created) - Number(a.created));
  }

  private objectsOf(kind: string): Map<string, StripeObject> {
    let objects = this.kinds.get(kind);
    if (!objects) {
      objects = new Map();
      this.kinds.set(kind, objects);
    }
    return objects;
  }
}

/** A list as Stripe pages it (one page here). */
export const stripeList = (url: string, data: unknown[]) => ({ object: 'list', url, has_more: false, data });

export interface FakeStripe {
  /** The base to give `STRIPE_API_BASE`. */
  url: string;
  store: FakeStripeStore;
  /** Every request received, in order. */
  requests: FakeStripeRequest[];
  close(): Promise<void>;
}

function match(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, segment] of want.entries()) {
    if (segment.startsWith(':')) params[segment.slice(1)] = decodeURIComponent(got[index]!);
    else if (segment !== got[index]) return undefined;
  }
  return params;
}

async function parametersOf(request: IncomingMessage, url: URL): Promise<Record<string, unknown>> {
  const form = request.method === 'POST' ? await text(request) : url.search.slice(1);
  return qs.parse(form, { depth: 10, arrayLimit: 100 }) as Record<string, unknown>;
}

/**
 * A small Stripe-shaped HTTP server on a free loopback port for the official SDK (`STRIPE_API_BASE`): the routes
 * given, an in-memory store, Stripe's error bodies, and idempotency keys answered with the first answer. It is
 * written from Stripe's API reference and answers only what the routes implement (404 otherwise).
 */
export async function startFakeStripe(routes: readonly FakeStripeRoute[], secretKey: string): Promise<FakeStripe> {
  const store = new FakeStripeStore();
  const requests: FakeStripeRequest[] = [];
  const replayed = new Map<string, FakeStripeAnswer>();

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://stripe.local');
    const reply = ({ status = 200, body }: FakeStripeAnswer) => {
      response.writeHead(status, {
        'content-type': 'application/json',
        'request-id': `req_${randomBytes(8).toString('hex')}`,
      });
      response.end(JSON.stringify(body));
    };
    const fail = (error: StripeApiError) =>
      reply({
        status: error.status,
        body: { error: { type: error.type, message: error.message, code: error.code, param: error.param } },
      });
    try {
      if (request.headers.authorization !== `Bearer ${secretKey}`) {
        return fail(new StripeApiError(401, 'invalid_request_error', 'Invalid API Key provided.'));
      }
      const body = await parametersOf(request, url);
      const idempotencyKey = request.headers['idempotency-key'] as string | undefined;
      const replayKey = idempotencyKey && `${request.method} ${url.pathname} ${idempotencyKey}`;
      const earlier = replayKey ? replayed.get(replayKey) : undefined;
      if (earlier) return reply(earlier);
      for (const route of routes) {
        const params = route.method === request.method ? match(route.pattern, url.pathname) : undefined;
        if (!params) continue;
        const received = { method: request.method ?? 'GET', path: url.pathname, params, body, idempotencyKey };
        requests.push(received);
        const answer = await route.handle(received, store);
        if (replayKey) replayed.set(replayKey, answer);
        return reply(answer);
      }
      return fail(
        new StripeApiError(
          404,
          'invalid_request_error',
          `Unrecognized request URL (${request.method}: ${url.pathname}).`,
        ),
      );
    } catch (error) {
      if (error instanceof StripeApiError) return fail(error);
      return fail(new StripeApiError(500, 'api_error', String(error)));
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    store,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
