// @vitest-environment jsdom
import type { BatchStatusResponse, ImageView } from '@renamer/contracts';
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { imageView } from '../../test/image-view';
import { fakeApi, renderWithQueries } from '../../test/render';
import { BatchPanels } from './batch-panel';

const BATCH = '5e2d1c0b-9a8f-4e7d-8c6b-5a4f3e2d1c0b';

const status = (done: boolean): BatchStatusResponse => ({
  batchId: BATCH,
  name: 'Summer shoot',
  status: done ? 'completed' : 'processing',
  total: 1,
  processed: done ? 1 : 0,
  progress: done ? 1 : 0,
  counts: { queued: 0, processing: done ? 0 : 1, ready: done ? 1 : 0, approved: 0, failed: 0, cancelled: 0 },
  locale: 'en',
  keywords: [],
  context: null,
  template: null,
  instructions: null,
  createdAt: '2026-11-28T10:00:00.000Z',
  updatedAt: '2026-11-28T10:00:00.000Z',
  completedAt: done ? '2026-11-28T10:00:05.000Z' : null,
});

const image = (done: boolean): ImageView =>
  imageView({
    batchId: BATCH,
    status: done ? 'ready' : 'processing',
    proposedFilename: done ? 'linen-dress.jpg' : null,
    filename: done ? 'linen-dress.jpg' : null,
  });

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('a batch followed on the upload page', () => {
  it('catches up by itself while it runs, with no socket event at all, and stops asking once it finished', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let done = false;
    const { sent } = fakeApi({
      [`GET /api/batch/${BATCH}/status`]: () => ({ json: status(done) }),
      [`GET /api/image/batch/${BATCH}`]: () => ({ json: { items: [image(done)], nextCursor: null } }),
    });
    // No LiveSocketContext: as if every event were lost.
    renderWithQueries(<BatchPanels batchIds={[BATCH]} onReview={() => undefined} />);
    expect((await screen.findByTestId('proposed-name')).textContent).toBe('naming…');

    done = true;
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect((await screen.findByText('linen-dress.jpg')).dataset.testid).toBe('proposed-name');
    expect(screen.getByTestId('batch-status').textContent).toBe('completed');

    const asked = sent.length;
    await act(() => vi.advanceTimersByTimeAsync(15_000));
    expect(sent.length).toBe(asked);
  });
});
