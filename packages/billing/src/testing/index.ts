export { activeSubscription, collectedCharge, STRIPE_ROUTES } from './fake-stripe/routes';
export {
  type FakeStripe,
  type FakeStripeAnswer,
  type FakeStripeRequest,
  type FakeStripeRoute,
  FakeStripeStore,
  StripeApiError,
  type StripeObject,
  startFakeStripe,
  stripeList,
} from './fake-stripe/server';
