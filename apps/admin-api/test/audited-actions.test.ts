import { randomUUID } from 'node:crypto';
import { createStripeClient } from '@renamer/billing';
import { collectedCharge, type FakeStripe, STRIPE_ROUTES, startFakeStripe } from '@renamer/billing/testing';
import { createDb, createRepositories, type DbClient, type Repositories } from '@renamer/db';
import { emailHash } from '@renamer/domain';
import { createIsolatedDatabase } from '@renamer/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../src/services/audit';
import { createFeatureFlagService } from '../src/services/feature-flags';
import { createPaymentService } from '../src/services/payments';

/**
 * An admin action and its audit entry land together or not at all. The audit insert is made to fail for real in
 * PostgreSQL: an actor that is no user breaks the entry's foreign key. A database of its own, since flags are
 * global and other files read them.
 */
const SECRET_KEY = 'sk_test_audited_actions';
let database: Awaited<ReturnType<typeof createIsolatedDatabase>>;
let client: DbClient;
let repositories: Repositories;
let fakeStripe: FakeStripe;
let admin: Actor;
const silent = { info() {}, warn() {}, error() {} };

beforeAll(async () => {
  database = await createIsolatedDatabase(process.env.DATABASE_URL!);
  client = createDb(database.url, { max: 2 });
  repositories = createRepositories(client.db);
  fakeStripe = await startFakeStripe(STRIPE_ROUTES, SECRET_KEY);
  const id = randomUUID();
  const user = await repositories.users.create({
    provider: 'https://issuer.test',
    providerSubject: id,
    displayName: 'Audited admin',
    emailHash: emailHash(`${id}@renamer.test`),
    role: 'admin',
  });
  admin = { actorId: user.id, requestId: `req-${id}` };
});
afterAll(async () => {
  await client?.close();
  await database?.drop();
  await fakeStripe?.close();
});

/** An actor whose audit entry PostgreSQL refuses (no such user). */
const noUser = (): Actor => ({ actorId: randomUUID(), requestId: `req-${randomUUID()}` });

/** The audit entries written in the actor's request (the database is this file's own: few entries). */
const entriesOf = async (actor: Actor) =>
  (await repositories.auditLog.list({ limit: 100 })).items.filter((entry) => entry.requestId === actor.requestId);

describe('a feature flag change and its audit entry', () => {
  function flagService() {
    const announced: number[] = [];
    const service = createFeatureFlagService({
      db: client.db,
      featureFlags: repositories.featureFlags,
      auditLog: repositories.auditLog,
      flags: { announceChange: async () => void announced.push(Date.now()) },
    });
    return { service, announced };
  }

  it('leaves the flag as it was, unannounced, when the audit insert fails', async () => {
    const { service, announced } = flagService();
    const before = await repositories.featureFlags.get('embed-metadata');
    const actor = noUser();

    await expect(service.set(actor, 'embed-metadata', { enabled: false }, silent)).rejects.toThrow();

    expect(await repositories.featureFlags.get('embed-metadata')).toEqual(before);
    expect((await service.list()).items.find((flag) => flag.key === 'embed-metadata')?.enabled).toBe(true);
    expect(await entriesOf(actor)).toEqual([]);
    expect(announced).toEqual([]);
  });

  it('writes both, with the request id, when the audit insert succeeds', async () => {
    const { service, announced } = flagService();
    const view = await service.set(admin, 'embed-metadata', { enabled: false }, silent);

    expect(view).toMatchObject({ key: 'embed-metadata', enabled: false });
    expect(await repositories.featureFlags.get('embed-metadata')).toMatchObject({ enabled: false });
    expect(await entriesOf(admin)).toEqual([
      expect.objectContaining({
        actorId: admin.actorId,
        action: 'feature_flag.update',
        targetId: 'embed-metadata',
        before: expect.objectContaining({ enabled: true }),
        after: expect.objectContaining({ enabled: false }),
      }),
    ]);
    expect(announced).toHaveLength(1);
  });
});

describe('a refund and its audit entry', () => {
  const service = () =>
    createPaymentService({
      db: client.db,
      payments: repositories.payments,
      auditLog: repositories.auditLog,
      stripe: createStripeClient({
        secretKey: SECRET_KEY,
        webhookSecret: 'whsec_audited_actions',
        prices: { pro: 'price_pro', max: 'price_max' },
        apiBase: new URL(fakeStripe.url),
      }),
    });

  it('records neither the refunded total nor the entry when the audit insert fails; the retry records both, Stripe refunding once', async () => {
    const paymentIntent = `pi_${randomUUID()}`;
    const charge = collectedCharge(fakeStripe.store, paymentIntent, 1900);
    const payment = await repositories.payments.create({
      userId: admin.actorId,
      amount: 1900,
      currency: 'eur',
      status: 'succeeded',
      stripePaymentIntentId: paymentIntent,
    });
    const key = randomUUID();
    const failing = noUser();

    await expect(service().refund(failing, payment.id, { amount: 500 }, key)).rejects.toThrow();
    expect(await repositories.payments.findById(payment.id)).toMatchObject({ status: 'succeeded', refundedAmount: 0 });
    expect(await entriesOf(failing)).toEqual([]);

    // The admin sends the request again with the same Idempotency-Key: Stripe answers the refund it made.
    expect(await service().refund(admin, payment.id, { amount: 500 }, key)).toMatchObject({
      status: 'partially_refunded',
      refundedAmount: 500,
    });
    expect(fakeStripe.store.list('refund', (refund) => refund.charge === charge.id)).toHaveLength(1);
    expect((await entriesOf(admin)).filter((entry) => entry.targetId === payment.id)).toEqual([
      expect.objectContaining({
        action: 'payment.refund',
        before: { status: 'succeeded', refundedAmount: 0 },
        after: { status: 'partially_refunded', refundedAmount: 500 },
      }),
    ]);
  });
});
