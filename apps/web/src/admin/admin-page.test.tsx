// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, renderWithQueries } from '../../test/render';
import AdminPage from './admin-page';

const person = {
  id: '3b7f7a0e-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
  displayName: 'Ada',
  plan: 'basic',
  role: 'user',
  quota: 50,
  template: null,
  instructions: null,
  createdAt: '2026-11-01T00:00:00.000Z',
} as const;

afterEach(cleanup);

describe('the admin dashboard', () => {
  it('tells a person without the admin role that it is not for them, and asks the admin API nothing', () => {
    const { sent } = fakeApi({});
    renderWithQueries(<AdminPage profile={person} path="/admin/users" go={vi.fn()} />);
    expect(screen.getByText(/This page is for the service's operators/)).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Administration' })).toBeNull();
    expect(sent).toEqual([]);
  });

  it('opens the section its address names, for an admin', async () => {
    fakeApi({
      'GET /api/admin/feature-flags': {
        json: {
          items: [
            {
              key: 'uploads-enabled',
              enabled: false,
              default: true,
              description: 'Uploads are accepted.',
              updatedAt: '2026-11-20T08:00:00.000Z',
            },
          ],
        },
      },
    });
    renderWithQueries(<AdminPage profile={{ ...person, role: 'admin' }} path="/admin/flags" go={vi.fn()} />);
    const flag = await screen.findByRole('switch', { name: 'uploads-enabled' });
    expect((flag as HTMLInputElement).checked).toBe(false);
    expect(screen.getByRole('link', { name: 'Feature flags' }).getAttribute('aria-current')).toBe('page');
  });
});
