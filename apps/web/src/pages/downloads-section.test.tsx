// @vitest-environment jsdom
import type { DownloadView } from '@renamer/contracts';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { profile } from '../../test/profile';
import { fakeApi, renderWithQueries } from '../../test/render';
import { formatBytes, formatTime } from '../ui/format';
import { AccountPage } from './account';
import { describeOptions } from './downloads-section';

const PROFILE = profile();
const BATCH = '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

const ARCHIVE: DownloadView = {
  id: '0f1e2d3c-4b5a-4968-8776-655443322110',
  kind: 'archive',
  batchId: BATCH,
  options: { embed: true, strip: 'location', approvedOnly: false, manifest: true, resize: 1600, format: 'webp' },
  entries: 12,
  bytes: 14_250_000,
  createdAt: '2026-11-20T10:00:00.000Z',
  expiresAt: '2026-11-20T11:00:00.000Z',
  completedAt: '2026-11-20T10:00:09.000Z',
};
const IMAGE: DownloadView = {
  id: '1f1e2d3c-4b5a-4968-8776-655443322111',
  kind: 'image',
  batchId: BATCH,
  imageId: '2f1e2d3c-4b5a-4968-8776-655443322112',
  options: { embed: false, strip: 'none' },
  entries: 1,
  bytes: null,
  createdAt: '2026-11-19T08:30:00.000Z',
  expiresAt: '2026-11-19T08:45:00.000Z',
  completedAt: null,
};

afterEach(cleanup);

describe('the downloads on the account page', () => {
  it('lists recent downloads with what each held, when, its size and how it was made, and pages to older ones', async () => {
    const { sent } = fakeApi({
      'GET /api/auth/api-keys': { json: { items: [], nextCursor: null } },
      'GET /api/downloads': ({ url }) =>
        url.searchParams.get('cursor') === 'page-2'
          ? { json: { items: [IMAGE], nextCursor: null } }
          : { json: { items: [ARCHIVE], nextCursor: 'page-2' } },
    });
    renderWithQueries(<AccountPage profile={PROFILE} />);
    const list = await screen.findByRole('list', { name: 'Your downloads' }, { timeout: 5_000 });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      `ZIP of 12 images, ${formatTime(ARCHIVE.createdAt)}: ${formatBytes(14_250_000)}, complete; SEO fields embedded, location removed, at most 1600 px, WEBP, with the rename kit`,
    ]);
    expect(formatBytes(14_250_000)).toMatch(/^14\.3\sMB$/);

    await userEvent.setup().click(screen.getByRole('button', { name: 'Show older downloads' }));
    await within(list).findByText(/^One image/);
    expect(within(list).getAllByRole('listitem')[1]!.textContent).toBe(
      `One image, ${formatTime(IMAGE.createdAt)}: not fetched through the service yet; as uploaded`,
    );
    expect(screen.queryByRole('button', { name: 'Show older downloads' })).toBeNull();
    expect(
      sent.filter((request) => request.url.pathname === '/api/downloads').map((r) => r.url.searchParams.get('cursor')),
    ).toEqual([null, 'page-2']);
    expect(screen.queryByText(/No downloads yet/)).toBeNull();
  });

  it('says when there is no download yet', async () => {
    fakeApi({
      'GET /api/auth/api-keys': { json: { items: [], nextCursor: null } },
      'GET /api/downloads': { json: { items: [], nextCursor: null } },
    });
    renderWithQueries(<AccountPage profile={PROFILE} />);
    expect((await screen.findByText(/No downloads yet/, {}, { timeout: 5_000 })).className).toBe('empty');
    expect(screen.queryByRole('list', { name: 'Your downloads' })).toBeNull();
  });

  it('describes the copies of a download in words', () => {
    expect(describeOptions({ embed: false, strip: 'all', approvedOnly: true, quality: 80, format: 'original' })).toBe(
      'metadata removed, quality 80, approved only',
    );
    expect(formatBytes(999)).toMatch(/^999 bytes$/);
  });
});
