export {
  type BillingService,
  type BillingServiceDeps,
  createBillingService,
  toPaymentView,
  toSubscriptionView,
} from './billing-service';
export {
  type BillingConfig,
  type BillingEnv,
  billingConfigFromEnv,
  billingEnv,
  type PaidPlan,
  planOfPrice,
} from './config';
export { type RefundDeps, type RefundRequest, refundPayment } from './refunds';
export { asOwnFailure, createStripeClient } from './stripe-client';
export {
  planOfSubscription,
  type SubscriptionSyncDeps,
  type SyncOptions,
  type SyncOutcome,
  syncSubscription,
} from './subscription-sync';
export { handleStripeEvent, type WebhookDeps, type WebhookOutcome } from './webhooks/handle-event';
