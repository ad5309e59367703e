import { asOwnFailure, type BillingConfig, handleStripeEvent, type WebhookDeps } from '@renamer/billing';
import { AppError } from '@renamer/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type Stripe from 'stripe';
import { z } from 'zod';

export interface WebhookRoutesOptions {
  /** Null when payments are not configured: the route answers 503. */
  billing: { config: BillingConfig; stripe: Stripe; deps: WebhookDeps } | null;
}

/**
 * `POST /api/payments/webhook`, Stripe's deliveries. Public (Stripe signs the payload instead), so it lives in a
 * scope of its own whose only body parser keeps the raw bytes: the signature covers them exactly as sent.
 */
export async function webhookRoutes(app: FastifyInstance, { billing }: WebhookRoutesOptions) {
  app.removeAllContentTypeParsers();
  app.setErrorHandler(async (error) => {
    throw asOwnFailure(error);
  });
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) =>
    done(null, body),
  );
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/payments/webhook',
    {
      schema: {
        tags: ['payments'],
        operationId: 'receiveStripeWebhook',
        summary: 'Stripe’s event deliveries (signed with the endpoint’s secret)',
        headers: z.object({ 'stripe-signature': z.string().optional() }),
        body: z.custom<Buffer>().meta({ type: 'string', format: 'binary' }),
        response: { 200: z.object({ received: z.literal(true) }) },
        errors: ['payments_not_configured'],
      },
    },
    async (request) => {
      if (!billing) throw new AppError('payments_not_configured', 'Payments are not configured on this service.');
      let event: Stripe.Event;
      try {
        event = billing.stripe.webhooks.constructEvent(
          request.body as Buffer,
          request.headers['stripe-signature'] ?? '',
          billing.config.webhookSecret,
        );
      } catch {
        throw new AppError('validation_failed', 'The Stripe signature does not match this payload, or is too old.');
      }
      const outcome = await handleStripeEvent(billing.deps, event);
      request.log.info({ eventId: event.id, type: event.type, outcome }, 'stripe event');
      return { received: true as const };
    },
  );
}
