// @vitest-environment jsdom
import type { Profile } from '@renamer/contracts';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeApi, renderWithQueries } from '../../test/render';
import { AccountPage } from './account';

const PROFILE: Profile = {
  id: '2b7c9a4e-1d3f-4e5a-8b6c-7d8e9f0a1b2c',
  displayName: 'Grace',
  plan: 'basic',
  role: 'user',
  quota: 50,
  template: null,
  instructions: 'British English',
  createdAt: '2026-11-01T00:00:00.000Z',
};

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
