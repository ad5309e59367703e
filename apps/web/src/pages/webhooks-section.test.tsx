// @vitest-environment jsdom
import type { WebhookView } from '@renamer/contracts';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { stubModalDialogs } from '../../test/dialog';
import { fakeApi, renderWithQueries } from '../../test/render';
import { formatTime } from '../ui/format';
import { WebhooksSection } from './webhooks-section';

const HOOK: WebhookView = {
  id: '3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b0a',
  url: 'https://shop.example/hooks',
  events: ['batch.completed', 'batch.failed'],
  description: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  disabledAt: null,
  disabledReason: null,
};
const SECRET = `whsec_${'A'.repeat(43)}=`;

stubModalDialogs();
afterEach(cleanup);

describe('the webhooks on the account page', () => {
  it('adds an endpoint with the events ticked, shows its secret once, and says why a URL is refused', async () => {
    let hooks: WebhookView[] = [];
    const { sent } = fakeApi({
      'GET /api/webhooks': () => ({ json: { items: hooks, nextCursor: null } }),
      'POST /api/webhooks': ({ body }) => {
        const { url } = body as { url: string };
        if (url.includes('localhost')) {
          return {
            status: 400,
            json: {
              code: 'invalid_webhook_url',
              detail: 'localhost resolves to 127.0.0.1, an address webhooks are never sent to.',
            },
          };
        }
        hooks = [{ ...HOOK, events: ['batch.completed', 'batch.failed', 'image.failed'] }];
        return { status: 201, json: { ...hooks[0], secret: SECRET } };
      },
    });
    renderWithQueries(<WebhooksSection />);
    const user = userEvent.setup();
    expect(await screen.findByText('No webhook yet.')).toBeTruthy();

    await user.type(screen.getByLabelText('Endpoint URL (https)'), 'https://localhost/hooks');
    await user.click(screen.getByRole('button', { name: 'Add webhook' }));
    expect((await screen.findByRole('alert')).textContent).toContain('never sent to');

    await user.clear(screen.getByLabelText('Endpoint URL (https)'));
    await user.type(screen.getByLabelText('Endpoint URL (https)'), HOOK.url);
    await user.click(screen.getByRole('checkbox', { name: /an image could not be named/ }));
    await user.click(screen.getByRole('button', { name: 'Add webhook' }));
    expect((await screen.findByTestId('new-webhook-secret')).textContent).toBe(SECRET);
    expect(screen.queryByRole('alert')).toBeNull();
    const posted = sent.filter((request) => request.method === 'POST' && request.url.pathname === '/api/webhooks');
    expect(posted.at(-1)?.body).toEqual({
      url: HOOK.url,
      events: ['batch.completed', 'batch.failed', 'image.failed'],
    });
    const list = await screen.findByRole('list', { name: 'Your webhooks' });
    await within(list).findByText(HOOK.url);
    expect(list.textContent).toContain('batch.completed, batch.failed, image.failed');
    expect(list.textContent).not.toContain(SECRET);
  });

  it('shows a disabled endpoint with its reason, sends a test, reads the attempt log and deletes after asking', async () => {
    let hooks: WebhookView[] = [
      {
        ...HOOK,
        disabledAt: '2026-11-22T10:00:00.000Z',
        disabledReason: 'A message (msg_1) could not be delivered for 24 hours: last attempt answered 503.',
      },
    ];
    const { sent } = fakeApi({
      'GET /api/webhooks': () => ({ json: { items: hooks, nextCursor: null } }),
      [`POST /api/webhooks/${HOOK.id}/test`]: { status: 202, json: { messageId: 'msg_2' } },
      [`GET /api/webhooks/${HOOK.id}/deliveries`]: {
        json: {
          items: [
            {
              id: '5e4d3c2b-1a09-4f8e-8d7c-6b5a4f3e2d1c',
              messageId: 'msg_2',
              event: 'webhook.test',
              attempt: 1,
              status: 'failed',
              responseStatus: 500,
              error: 'answered 500',
              createdAt: '2026-11-22T11:00:00.000Z',
              nextAttemptAt: '2026-11-22T11:00:15.000Z',
            },
          ],
          nextCursor: null,
        },
      },
      [`DELETE /api/webhooks/${HOOK.id}`]: () => {
        hooks = [];
        return { json: null };
      },
    });
    renderWithQueries(<WebhooksSection />);
    const user = userEvent.setup();
    const list = await screen.findByRole('list', { name: 'Your webhooks' });
    await within(list).findByText(HOOK.url);
    expect(list.textContent).toContain(`Disabled ${formatTime('2026-11-22T10:00:00.000Z')}: A message (msg_1)`);

    await user.click(within(list).getByRole('button', { name: 'Send test' }));
    expect((await within(list).findByRole('status')).textContent).toBe('Test event queued.');
    await user.click(within(list).getByRole('button', { name: 'Deliveries' }));
    const attempts = await within(list).findByRole('list', { name: 'Delivery attempts' });
    expect(attempts.textContent).toBe(
      `${formatTime('2026-11-22T11:00:00.000Z')} webhook.test, attempt 1: failed (500), answered 500; next try ${formatTime('2026-11-22T11:00:15.000Z')}`,
    );

    await user.click(within(list).getByRole('button', { name: `Delete webhook ${HOOK.url}` }));
    expect(sent.some((request) => request.method === 'DELETE')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Delete webhook' }));
    expect(await screen.findByText('No webhook yet.')).toBeTruthy();
    expect(sent.filter((request) => request.method === 'DELETE').map((request) => request.url.pathname)).toEqual([
      `/api/webhooks/${HOOK.id}`,
    ]);
  });
  it('says a refused deletion inside the question, where it can be seen, and keeps the webhook', async () => {
    fakeApi({
      'GET /api/webhooks': { json: { items: [HOOK], nextCursor: null } },
      [`DELETE /api/webhooks/${HOOK.id}`]: {
        status: 503,
        json: { code: 'unavailable', detail: 'The database is not answering.' },
      },
    });
    renderWithQueries(<WebhooksSection />);
    const user = userEvent.setup();
    const list = await screen.findByRole('list', { name: 'Your webhooks' });
    await user.click(await within(list).findByRole('button', { name: `Delete webhook ${HOOK.url}` }));
    await user.click(screen.getByRole('button', { name: 'Delete webhook' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this webhook?' });
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('The database is not answering.');
    expect(within(list).getByText(HOOK.url)).toBeTruthy();

    // The way out closes it, and the failure goes with it.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
