import { principalOf } from '@renamer/auth';
import { asOwnFailure, type BillingService } from '@renamer/billing';
import {
  AppError,
  ChangePlanBody,
  CheckoutBody,
  CheckoutResponse,
  PaymentHistory,
  PortalResponse,
  SubscriptionView,
} from '@renamer/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

export interface PaymentRoutesOptions {
  /** Null when payments are not configured: every route answers 503. */
  billing: BillingService | null;
}

/** The caller's plan through Stripe: checkout, the customer portal, plan changes and the payment history. */
export async function paymentRoutes(app: FastifyInstance, { billing }: PaymentRoutesOptions) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  app.setErrorHandler(async (error) => {
    throw asOwnFailure(error);
  });
  const tags = ['payments'];
  const errors = ['payments_not_configured' as const];
  const configured = (): BillingService => {
    if (!billing) throw new AppError('payments_not_configured', 'Payments are not configured on this service.');
    return billing;
  };

  typed.post(
    '/api/payments/checkout',
    {
      schema: {
        tags,
        operationId: 'startCheckout',
        summary: 'A Stripe Checkout session for a paid plan',
        body: CheckoutBody,
        response: { 200: CheckoutResponse },
        errors: [...errors, 'conflict'],
      },
    },
    async (request) => configured().checkout(principalOf(request).user, request.body.plan),
  );

  typed.post(
    '/api/payments/portal',
    {
      schema: {
        tags,
        operationId: 'openBillingPortal',
        summary: 'A Stripe Customer Portal session',
        response: { 200: PortalResponse },
        errors: [...errors, 'conflict'],
      },
    },
    async (request) => configured().portal(principalOf(request).user),
  );

  typed.get(
    '/api/payments/subscription',
    {
      schema: {
        tags,
        operationId: 'getSubscription',
        summary: 'The caller’s subscription, or null',
        response: { 200: SubscriptionView },
        errors,
      },
    },
    async (request) => configured().subscription(principalOf(request).user),
  );

  typed.post(
    '/api/payments/subscription',
    {
      schema: {
        tags,
        operationId: 'changePlan',
        summary: 'Upgrade at once (prorated) or downgrade at the period’s end',
        body: ChangePlanBody,
        response: { 200: SubscriptionView },
        errors: [...errors, 'conflict'],
      },
    },
    async (request) => configured().changePlan(principalOf(request).user, request.body.plan),
  );

  for (const [path, operationId, summary, change] of [
    ['cancel', 'cancelSubscription', 'Cancel at the period’s end', 'cancel'],
    ['reactivate', 'reactivateSubscription', 'Undo a cancellation or a pending downgrade', 'reactivate'],
  ] as const) {
    typed.post(
      `/api/payments/subscription/${path}`,
      {
        schema: { tags, operationId, summary, response: { 200: SubscriptionView }, errors: [...errors, 'conflict'] },
      },
      async (request) => configured()[change](principalOf(request).user),
    );
  }

  typed.get(
    '/api/payments/history',
    {
      schema: {
        tags,
        operationId: 'getPaymentHistory',
        summary: 'The caller’s payments, newest first',
        response: { 200: PaymentHistory },
        errors,
      },
    },
    async (request) => configured().history(principalOf(request).user),
  );
}
