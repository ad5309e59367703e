import { principalOf } from '@renamer/auth';
import {
  AppError,
  EnhanceKeywordsBody,
  EnhanceKeywordsResponse,
  SuggestKeywordsBody,
  SuggestKeywordsResponse,
  ValidateKeywordsBody,
  ValidateKeywordsResponse,
} from '@renamer/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { KeywordService } from '../../services/keywords/keyword-service';

export interface KeywordRoutesOptions {
  keywords: KeywordService;
  /** Requests per minute per user, the three routes together, on top of the global limit. */
  perMinute: number;
}

/** Aborts when the client leaves before its answer is sent, so that a model call stops holding its slot. */
function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('the client closed the connection'));
  });
  return controller.signal;
}

export async function keywordRoutes(app: FastifyInstance, { keywords, perMinute }: KeywordRoutesOptions) {
  // The global limiter's Redis store and settings with a counter of its own (the global hook has already run,
  // so a route-level `config.rateLimit` would be skipped); invalid requests count too.
  const limit = app.createRateLimit({
    max: perMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => `keywords:user:${principalOf(request).user.id}`,
  });
  app.addHook('onRequest', async (request) => {
    const counted = await limit(request);
    if (counted.isAllowed || !counted.isExceeded) return;
    throw new AppError(
      'rate_limited',
      `Too many keyword requests: at most ${counted.max} a minute. Try again in ${counted.ttlInSeconds} s.`,
      undefined,
      { 'retry-after': String(counted.ttlInSeconds) },
    );
  });

  const typed = app.withTypeProvider<ZodTypeProvider>();
  const schema = { tags: ['keywords'] };

  typed.post(
    '/api/keywords/enhance',
    {
      schema: {
        ...schema,
        operationId: 'enhanceKeywords',
        summary: 'Long-tail phrases, related terms and categories for keywords',
        body: EnhanceKeywordsBody,
        response: { 200: EnhanceKeywordsResponse },
        errors: ['invalid_keywords'],
      },
    },
    (request, reply) => keywords.enhance(request.body, clientGone(reply)),
  );

  typed.post(
    '/api/keywords/suggest',
    {
      schema: {
        ...schema,
        operationId: 'suggestKeywords',
        summary: 'Keywords for one of your images, or for a text',
        body: SuggestKeywordsBody,
        response: { 200: SuggestKeywordsResponse },
        errors: ['not_found'],
      },
    },
    (request, reply) => keywords.suggest(principalOf(request).user.id, request.body, clientGone(reply)),
  );

  typed.post(
    '/api/keywords/validate',
    {
      schema: {
        ...schema,
        operationId: 'validateKeywords',
        summary: 'Judge keywords: each normalised, with what is wrong with it',
        body: ValidateKeywordsBody,
        response: { 200: ValidateKeywordsResponse },
      },
    },
    (request) => keywords.validate(request.body.keywords, request.body.locale),
  );
}
