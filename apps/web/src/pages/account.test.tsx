// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { stubModalDialogs } from '../../test/dialog';
import { profile } from '../../test/profile';
import { fakeApi, renderWithQueries } from '../../test/render';
import { AccountPage } from './account';

const PROFILE = profile({ instructions: 'British English' });

stubModalDialogs();
afterEach(cleanup);

describe('the naming defaults on the account page', () => {
  it('saves the template and instructions new batches take, clears with an empty field, and says why a template is refused', async () => {
    const { sent } = fakeApi({
      'GET /api/auth/api-keys': { json: { items: [], nextCursor: null } },
      'PATCH /api/auth/me': ({ body }) => {
        const { template } = body as { template: string | null };
        if (template?.includes('{colour}')) {
          return { status: 400, json: { code: 'invalid_template', detail: 'Unknown token {colour}.' } };
        }
        return { json: { ...PROFILE, ...(body as object) } };
      },
    });
    renderWithQueries(<AccountPage profile={PROFILE} />);
    const user = userEvent.setup();
    const template = screen.getByLabelText('Default naming template');
    const instructions = screen.getByLabelText('Default instructions for the vision model');
    expect((instructions as HTMLTextAreaElement).value).toBe('British English');
    expect(screen.getByText('485 of 500 characters left. Read only when the server runs a vision model.')).toBeTruthy();

    await user.type(template, '{{colour}-shoes');
    await user.click(screen.getByRole('button', { name: 'Save defaults' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Unknown token \{colour\}\. Change the template/);

    await user.clear(template);
    await user.type(template, 'acme-{{subject}-{{seq:3}');
    await user.clear(instructions);
    await user.click(screen.getByRole('button', { name: 'Save defaults' }));
    await screen.findByText('Saved: new batches use them.');
    await waitFor(() =>
      expect(sent.filter((request) => request.method === 'PATCH').at(-1)?.body).toEqual({
        template: 'acme-{subject}-{seq:3}',
        instructions: null,
      }),
    );
  });
});

describe('the API keys on the account page', () => {
  const KEY = {
    id: '5c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
    name: 'laptop script',
    prefix: 'rn_ab12',
    createdAt: '2026-11-02T00:00:00.000Z',
    expiresAt: null,
  };

  it('says when there is no key, asks before revoking (naming the key), keeps it on "Keep it", and on "Revoke" revokes it and hides its secret', async () => {
    let keys: (typeof KEY & { lastUsedAt: string | null })[] = [];
    const { sent } = fakeApi({
      'GET /api/auth/api-keys': () => ({ json: { items: keys, nextCursor: null } }),
      'POST /api/auth/api-keys': () => {
        keys = [{ ...KEY, lastUsedAt: null }];
        return { json: { ...KEY, key: 'rn_ab12-the-secret' } };
      },
      [`DELETE /api/auth/api-keys/${KEY.id}`]: () => {
        keys = [];
        return { json: null };
      },
    });
    renderWithQueries(<AccountPage profile={PROFILE} />);
    const user = userEvent.setup();
    expect((await screen.findByText(/No API key yet/)).className).toBe('empty');

    await user.type(screen.getByLabelText('Name of a new key'), 'laptop script');
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect((await screen.findByTestId('new-api-key')).textContent).toBe('rn_ab12-the-secret');
    const revokeButton = await screen.findByRole('button', { name: 'Revoke laptop script' });
    expect(revokeButton.className).toBe('danger');
    expect(screen.queryByText(/No API key yet/)).toBeNull();

    // Asked first: nothing is sent until "Revoke" in the dialog.
    await user.click(revokeButton);
    const dialog = screen.getByRole('dialog', { name: 'Revoke “laptop script”?' });
    expect(dialog.textContent).toContain('Scripts using it stop working at once.');
    expect(screen.getByRole('button', { name: 'Keep it' }).className).toBe('secondary');
    await user.click(screen.getByRole('button', { name: 'Keep it' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(sent.some((request) => request.method === 'DELETE')).toBe(false);
    expect(screen.getByTestId('new-api-key')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Revoke laptop script' }));
    const revoke = screen.getByRole('button', { name: 'Revoke' });
    expect(revoke.className).toBe('danger');
    await user.click(revoke);
    await waitFor(() => expect(sent.filter((request) => request.method === 'DELETE')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByTestId('new-api-key')).toBeNull());
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await screen.findByText(/No API key yet/)).toBeTruthy();
  });

  it('keeps a newer key’s secret on view when an older key is revoked', async () => {
    const older = { ...KEY, id: '6d2e3f4a-5b6c-4d7e-8f9a-0b1c2d3e4f5a', name: 'old script', lastUsedAt: null };
    let keys = [older];
    fakeApi({
      'GET /api/auth/api-keys': () => ({ json: { items: keys, nextCursor: null } }),
      'POST /api/auth/api-keys': () => {
        keys = [...keys, { ...KEY, lastUsedAt: null }];
        return { json: { ...KEY, key: 'rn_ab12-the-secret' } };
      },
      [`DELETE /api/auth/api-keys/${older.id}`]: () => {
        keys = keys.filter((key) => key.id !== older.id);
        return { json: null };
      },
    });
    renderWithQueries(<AccountPage profile={PROFILE} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Name of a new key'), 'laptop script');
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    await screen.findByTestId('new-api-key');
    await user.click(await screen.findByRole('button', { name: 'Revoke old script' }));
    await user.click(screen.getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Revoke old script' })).toBeNull());
    expect(screen.getByTestId('new-api-key').textContent).toBe('rn_ab12-the-secret');
  });

  it('marks the account’s deletion as the danger it is', async () => {
    fakeApi({ 'GET /api/auth/api-keys': { json: { items: [], nextCursor: null } } });
    renderWithQueries(<AccountPage profile={PROFILE} />);
    const user = userEvent.setup();
    const start = screen.getByRole('button', { name: 'Delete the account…' });
    expect(start.className).toBe('danger');
    await user.click(start);
    const asked = screen.getByRole('dialog', { name: 'Delete your account?' });
    expect(within(asked).getByRole('button', { name: 'Delete everything' }).className).toBe('danger');
    const keep = within(asked).getByRole('button', { name: 'Keep my account' });
    expect(keep.className).toBe('secondary');
    // The way out has the focus: a habitual Enter deletes nothing.
    expect(document.activeElement).toBe(keep);
  });
});
