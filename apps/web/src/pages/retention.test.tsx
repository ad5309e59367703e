// @vitest-environment jsdom
import type { BatchListItem } from '@renamer/contracts';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { stubModalDialogs } from '../../test/dialog';
import { profile } from '../../test/profile';
import { fakeApi, renderWithQueries } from '../../test/render';
import { AccountPage } from './account';
import { BatchesPage } from './batches';

const PROFILE = profile({ retainOriginalsDays: 30 });
const QUOTA = {
  plan: 'basic',
  quota: 50,
  used: 3,
  remaining: 47,
  periodStart: '2026-11-01T00:00:00.000Z',
  periodEnd: '2026-12-01T00:00:00.000Z',
};

const batch = (batchId: string, name: string, removesAt: string | null): BatchListItem => ({
  batchId,
  name,
  status: 'completed',
  total: 1,
  processed: 1,
  progress: 1,
  counts: { queued: 0, processing: 0, ready: 1, approved: 0, failed: 0, cancelled: 0 },
  locale: 'en',
  keywords: [],
  context: null,
  template: null,
  instructions: null,
  createdAt: '2026-10-01T00:00:00.000Z',
  updatedAt: '2026-10-01T00:00:00.000Z',
  completedAt: '2026-10-01T00:00:00.000Z',
  removesAt,
});

stubModalDialogs();
afterEach(cleanup);

describe('retention in the web app', () => {
  it('shows each batch the date the retention policy removes it, and nothing when originals are kept', async () => {
    const removesAt = '2026-12-05T10:00:00.000Z';
    fakeApi({
      'GET /api/batch': {
        json: {
          items: [
            batch('0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', 'Old mugs', removesAt),
            batch('1a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', 'Kept mugs', null),
          ],
          nextCursor: null,
        },
      },
    });
    renderWithQueries(<BatchesPage onReview={() => {}} />);
    const rows = await screen.findAllByRole('listitem');
    const old = rows.find((row) => row.textContent?.includes('Old mugs'))!;
    const kept = rows.find((row) => row.textContent?.includes('Kept mugs'))!;
    expect(within(old).getByTestId('batch-removes-at').textContent).toContain(
      `Removed on ${new Date(removesAt).toLocaleDateString()}`,
    );
    expect(kept.textContent).not.toContain('Removed on');
  });

  it('says the policy on the account page when it is on, and nothing when it is off', async () => {
    fakeApi({ 'GET /api/auth/quota': { json: QUOTA }, 'GET /api/auth/api-keys': { json: { items: [] } } });
    const { unmount } = renderWithQueries(<AccountPage profile={PROFILE} />);
    expect((await screen.findByTestId('retention-policy')).textContent).toContain(
      'Originals are kept 30 days; each batch shows its date',
    );
    unmount();
    renderWithQueries(<AccountPage profile={{ ...PROFILE, retainOriginalsDays: null }} />);
    await screen.findByText(/3 of 50 images used this month/);
    expect(screen.queryByTestId('retention-policy')).toBeNull();
  });
});
