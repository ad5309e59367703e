import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createPaymentRepository } from '../src';
import { connectTestDb, createTestUser, newestFirst } from './support/database';

const client = connectTestDb();
const payments = createPaymentRepository(client.db);

afterAll(() => client.close());

function paymentInput(userId: string) {
  return {
    userId,
    amount: 1_500,
    currency: 'eur',
    description: 'Pro plan',
    stripePaymentIntentId: `pi_${randomUUID()}`,
    stripeInvoiceId: `in_${randomUUID()}`,
    stripeCheckoutSessionId: `cs_${randomUUID()}`,
  };
}

describe('payment repository', () => {
  it('creates a pending payment and finds it by each of its ids', async () => {
    const user = await createTestUser(client);
    const input = paymentInput(user.id);
    const payment = await payments.create(input);
    expect(payment).toMatchObject({ ...input, status: 'pending', refundedAmount: 0 });
    expect(await payments.findById(payment.id)).toEqual(payment);
    expect(await payments.findByStripePaymentIntentId(input.stripePaymentIntentId)).toEqual(payment);
    expect(await payments.findByStripeInvoiceId(input.stripeInvoiceId)).toEqual(payment);
    expect(await payments.findByStripeCheckoutSessionId(input.stripeCheckoutSessionId)).toEqual(payment);
    expect(await payments.findById(randomUUID())).toBeNull();
  });

  it('refuses a second payment for the same payment intent', async () => {
    const user = await createTestUser(client);
    const input = paymentInput(user.id);
    await payments.create(input);
    await expect(
      payments.create({ ...paymentInput(user.id), stripePaymentIntentId: input.stripePaymentIntentId }),
    ).rejects.toThrow();
  });

  it('updates the status and derives the refund status from the refunded total', async () => {
    const user = await createTestUser(client);
    const payment = await payments.create(paymentInput(user.id));
    expect(await payments.update(payment.id, { status: 'succeeded' })).toMatchObject({ status: 'succeeded' });
    expect(await payments.setRefundedAmount(payment.id, 0)).toMatchObject({ status: 'succeeded', refundedAmount: 0 });
    expect(await payments.setRefundedAmount(payment.id, 500)).toMatchObject({
      status: 'partially_refunded',
      refundedAmount: 500,
    });
    expect(await payments.setRefundedAmount(payment.id, 1_500)).toMatchObject({
      status: 'refunded',
      refundedAmount: 1_500,
    });
    await expect(payments.setRefundedAmount(payment.id, 1_501)).rejects.toThrow();
    expect(await payments.setRefundedAmount(randomUUID(), 1)).toBeNull();
  });

  it('lists a user’s payments newest first, paged, and filters the admin list', async () => {
    const [user, other] = await Promise.all([createTestUser(client), createTestUser(client)]);
    const created = [];
    for (let index = 0; index < 3; index += 1) created.push(await payments.create(paymentInput(user.id)));
    const foreign = await payments.create(paymentInput(other.id));
    const expected = newestFirst(created).map((payment) => payment.id);

    const first = await payments.listForUser(user.id, { limit: 2 });
    const second = await payments.listForUser(user.id, { limit: 2, cursor: first.nextCursor });
    expect([...first.items, ...second.items].map((payment) => payment.id)).toEqual(expected);
    expect(second.nextCursor).toBeNull();

    await payments.update(foreign.id, { status: 'failed' });
    const failed = await payments.list({ userId: other.id, status: 'failed' });
    expect(failed.items.map((payment) => payment.id)).toEqual([foreign.id]);
  });
});
