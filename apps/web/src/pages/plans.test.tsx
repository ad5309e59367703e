// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeApi, renderWithQueries } from '../../test/render';
import { PlansPage } from './plans';

const QUOTA = {
  plan: 'pro',
  quota: 500,
  used: 120,
  remaining: 380,
  periodStart: '2026-11-01T00:00:00.000Z',
  periodEnd: '2026-12-01T00:00:00.000Z',
};
const SUBSCRIPTION = {
  plan: 'pro',
  status: 'active',
  currentPeriodEnd: '2026-12-14T00:00:00.000Z',
  cancelAtPeriodEnd: false,
};

afterEach(cleanup);

describe('the plans page', () => {
  it('says what each change does to the quota before it is made, and sends the plan chosen', async () => {
    const { sent } = fakeApi({
      'GET /api/auth/quota': { json: QUOTA },
      'GET /api/payments/subscription': { json: SUBSCRIPTION },
      'GET /api/payments/history': {
        json: {
          items: [
            {
              id: '9d2f3c1e-5b6a-4c7d-8e9f-0a1b2c3d4e5f',
              amount: 1900,
              currency: 'eur',
              status: 'partially_refunded',
              description: 'Renamer Pro',
              refundedAmount: 500,
              createdAt: '2026-11-14T10:00:00.000Z',
            },
          ],
        },
      },
      'POST /api/payments/subscription': { json: { ...SUBSCRIPTION, plan: 'max' } },
    });
    renderWithQueries(<PlansPage />);
    await screen.findByText('Pro: 120 of 500 images used this month.');
    const plans = screen.getByRole('list', { name: 'Plans' });
    expect(plans.textContent).toContain('At once: 1000 images this month');
    expect(plans.textContent).toMatch(/Your subscription ends on .*; then 50 images a month\./);
    const payments = screen.getByRole('list', { name: 'Payment history' });
    expect(payments.textContent).toMatch(/€19\.00 · partially refunded \(€5\.00 refunded\)/);

    await userEvent.setup().click(screen.getByRole('button', { name: 'Switch to Max' }));
    await waitFor(() =>
      expect(sent.find((request) => request.method === 'POST')).toMatchObject({ body: { plan: 'max' } }),
    );
  });

  it('offers checkout, not plan changes, to a person without a subscription', async () => {
    fakeApi({
      'GET /api/auth/quota': { json: { ...QUOTA, plan: 'basic', quota: 50, used: 50, remaining: 0 } },
      'GET /api/payments/subscription': { json: null },
      'GET /api/payments/history': { json: { items: [] } },
    });
    renderWithQueries(<PlansPage />);
    await screen.findByRole('button', { name: 'Upgrade to Pro' });
    expect(screen.getByRole('button', { name: 'Upgrade to Max' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Switch to/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Manage billing' })).toBeNull();
    expect(await screen.findByText('No payment yet.')).toBeTruthy();
  });

  it('says plainly when the server has no payments, instead of offering what would fail', async () => {
    const notConfigured = {
      status: 503,
      json: { code: 'payments_not_configured', detail: 'Payments are not configured on this server.' },
    };
    fakeApi({
      'GET /api/auth/quota': { json: { ...QUOTA, plan: 'basic', quota: 50 } },
      'GET /api/payments/subscription': notConfigured,
      'GET /api/payments/history': notConfigured,
    });
    renderWithQueries(<PlansPage />);
    await screen.findByText(/Payments are not set up on this server/);
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('shows the three plans and what each gives on a server without payments, the current one marked, with the notice and nothing to buy', async () => {
    const notConfigured = {
      status: 503,
      json: { code: 'payments_not_configured', detail: 'Payments are not configured on this server.' },
    };
    fakeApi({
      'GET /api/auth/quota': { json: QUOTA },
      'GET /api/payments/subscription': notConfigured,
      'GET /api/payments/history': notConfigured,
    });
    renderWithQueries(<PlansPage />);
    await screen.findByText(/Payments are not set up on this server/);
    const cards = within(screen.getByRole('list', { name: 'Plans' })).getAllByRole('listitem');
    expect(cards.map((card) => card.textContent)).toEqual([
      expect.stringMatching(/^Basic50 images a month$/),
      expect.stringMatching(/^Pro500 images a monthYour plan$/),
      expect.stringMatching(/^Max1000 images a month$/),
    ]);
    await waitFor(() => expect(cards.map((card) => card.getAttribute('aria-current'))).toEqual([null, 'true', null]));
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByRole('list', { name: 'Payment history' })).toBeNull();
  });

  it('says so, in the empty state, when there is no payment yet', async () => {
    fakeApi({
      'GET /api/auth/quota': { json: { ...QUOTA, plan: 'basic', quota: 50 } },
      'GET /api/payments/subscription': { json: null },
      'GET /api/payments/history': { json: { items: [] } },
    });
    renderWithQueries(<PlansPage />);
    expect((await screen.findByText('No payment yet.')).className).toBe('empty');
  });
});
