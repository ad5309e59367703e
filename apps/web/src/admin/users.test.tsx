// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeApi, renderWithQueries } from '../../test/render';
import { UsersSection } from './users';

const ada = {
  id: '3b7f7a0e-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
  displayName: 'Ada',
  plan: 'basic',
  role: 'user',
  quota: 50,
  template: null,
  instructions: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  bannedAt: null,
  banReason: null,
} as const;

const detail = (quotaCredits: unknown[]) => ({
  ...ada,
  usage: {
    quota: 50,
    used: 11,
    remaining: 39,
    periodStart: '2026-11-01T00:00:00.000Z',
    periodEnd: '2026-12-01T00:00:00.000Z',
  },
  batches: 2,
  activeSessions: 1,
  activeApiKeys: 0,
  payments: [],
  quotaCredits,
});

afterEach(cleanup);

async function openAda(quotaCredits: unknown[]) {
  fakeApi({
    'GET /api/admin/users': { json: { items: [ada], nextCursor: null } },
    [`GET /api/admin/users/${ada.id}`]: { json: detail(quotaCredits) },
  });
  renderWithQueries(<UsersSection />);
  fireEvent.click(await screen.findByRole('button', { name: 'Open Ada' }));
  await screen.findByText('11 of 50 images used this month.');
}

describe("the admin's view of a user", () => {
  it('lists the quota given back for images the service failed, newest first as the API sends them', async () => {
    await openAda([
      {
        imageId: '9d1c4a6e-2b3f-4c5d-8e9f-0a1b2c3d4e5f',
        reason: 'analysis failed after its last attempt',
        createdAt: '2026-11-20T08:00:00.000Z',
      },
      { imageId: null, reason: 'the workers analysing it stopped too often', createdAt: '2026-11-19T08:00:00.000Z' },
    ]);
    const list = screen.getByRole('list', { name: 'Quota given back' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain('image 9d1c4a6e-2b3f-4c5d-8e9f-0a1b2c3d4e5f');
    expect(items[0]!.textContent).toContain('analysis failed after its last attempt');
    expect(items[1]!.textContent).toContain('a deleted image');
    expect(items[1]!.textContent).toContain('the workers analysing it stopped too often');
  });

  it('says so when nothing was given back', async () => {
    await openAda([]);
    expect(screen.queryByRole('list', { name: 'Quota given back' })).toBeNull();
    expect(screen.getByText("No image failed through the service's fault.")).toBeTruthy();
  });
});
