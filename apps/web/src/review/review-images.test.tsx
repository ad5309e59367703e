// @vitest-environment jsdom
import type { BatchStatusResponse, ImageView } from '@renamer/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { imageView } from '../../test/image-view';
import { fakeApi, type SentRequest } from '../../test/render';
import { LOW_SCORE_BELOW, PAGE, replaceImage, tabCounts, useReviewImages } from './review-images';

const BATCH = '6f1c2a52-52a4-4d5f-9f0e-1d2c3b4a5f60';
const imageId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
/** An image of the batch, ready, its name scoring `score`. */
const image = (n: number, score: number, fields: Partial<ImageView> = {}): ImageView =>
  imageView({
    id: imageId(n),
    batchId: BATCH,
    originalFilename: `IMG_${n}.JPG`,
    proposedFilename: `name-${n}.jpg`,
    filename: `name-${n}.jpg`,
    seo: { score, reasons: [] },
    ...fields,
  });

/** The list endpoint over `pages`, one after the other by cursor (`p1`, `p2`, …), as the server pages them. */
const listAnswer =
  (pages: ImageView[][]) =>
  ({ url }: SentRequest) => {
    const index = url.searchParams.has('cursor') ? Number(url.searchParams.get('cursor')?.slice(1)) : 0;
    return { json: { items: pages[index], nextCursor: index + 1 < pages.length ? `p${index + 1}` : null } };
  };
const listRequests = (sent: SentRequest[]) =>
  sent.filter((request) => request.url.pathname === `/api/image/batch/${BATCH}`).map((request) => request.url);

/** The app's query client, as main.tsx provides it (no retries in tests), one per test. */
let queries: QueryClient;
const wrapper = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={queries}>{children}</QueryClientProvider>
);
beforeEach(() => {
  queries = new QueryClient({ defaultOptions: { queries: { retry: false } } });
});
afterEach(() => {
  cleanup();
  queries.clear();
});

describe('the review tabs', () => {
  it('count failed and cancelled images together as failed, and the low scores only once they are known', () => {
    const status = {
      total: 12,
      counts: { queued: 1, processing: 1, ready: 4, approved: 3, failed: 2, cancelled: 1 },
    } as BatchStatusResponse;
    expect(tabCounts(status, undefined)).toEqual({
      all: 12,
      review: 4,
      approved: 3,
      low: undefined,
      failed: 3,
    });
    expect(tabCounts(status, 2).low).toBe(2);
    expect(tabCounts(status, 0).low).toBe(0);
    expect(tabCounts(undefined, undefined)).toEqual({
      all: undefined,
      review: undefined,
      approved: undefined,
      low: undefined,
      failed: undefined,
    });
  });

  it('lists on the Low score tab only the names under the bar, and stops asking once a page reaches it', async () => {
    const { sent } = fakeApi({
      [`GET /api/image/batch/${BATCH}`]: listAnswer([
        [image(1, 5), image(2, 20)],
        [image(3, 30), image(4, 45)],
        [image(5, LOW_SCORE_BELOW - 1), image(6, LOW_SCORE_BELOW)],
        [image(7, 70), image(8, 90)],
      ]),
    });
    const { result } = renderHook(() => useReviewImages(BATCH, 'low', 'upload'), { wrapper });

    await waitFor(() => expect(result.current.pages.isSuccess && !result.current.pages.hasNextPage).toBe(true));
    expect(result.current.images.map((each) => each.seo?.score)).toEqual([5, 20, 30, 45, LOW_SCORE_BELOW - 1]);
    // Three pages asked for, the lowest scores of the ready images, whatever sort the page is in; never the fourth.
    const asked = listRequests(sent);
    expect(asked.map((url) => url.searchParams.get('cursor'))).toEqual([null, 'p1', 'p2']);
    for (const url of asked) {
      expect(url.searchParams.get('status')).toBe('ready');
      expect(url.searchParams.get('sort')).toBe('score');
      expect(url.searchParams.get('limit')).toBe(String(PAGE));
    }
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(listRequests(sent)).toHaveLength(3);
  });

  it('asks for one page only when the first already reaches the bar, and counts none when no name is low', async () => {
    const { sent } = fakeApi({
      [`GET /api/image/batch/${BATCH}`]: listAnswer([[image(1, 60), image(2, 70)], [image(3, 80)]]),
    });
    const { result } = renderHook(() => useReviewImages(BATCH, 'low', 'score'), { wrapper });
    await waitFor(() => expect(result.current.pages.isSuccess).toBe(true));
    expect(result.current.pages.hasNextPage).toBe(false);
    expect(result.current.images).toEqual([]);
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(listRequests(sent)).toHaveLength(1);
  });

  it('puts a changed image in place in every loaded tab, without asking the server again', async () => {
    const low = [image(1, 10), image(2, 30)];
    const all = [image(2, 30), image(3, 80), image(1, 10)];
    const { sent } = fakeApi({
      [`GET /api/image/batch/${BATCH}`]: (request) =>
        listAnswer([request.url.searchParams.get('status') === 'ready' ? low : all])(request),
    });
    const { result } = renderHook(
      () => ({ all: useReviewImages(BATCH, 'all', 'upload'), low: useReviewImages(BATCH, 'low', 'score') }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.all.pages.isSuccess && result.current.low.pages.isSuccess).toBe(true));
    const before = listRequests(sent).length;

    const renamed = image(2, 40, { filename: 'red-shoes.jpg' });
    act(() => replaceImage(queries, BATCH, renamed));

    await waitFor(() =>
      expect(result.current.all.images.map((each) => each.filename)).toEqual([
        'red-shoes.jpg',
        'name-3.jpg',
        'name-1.jpg',
      ]),
    );
    expect(result.current.low.images.map((each) => each.filename)).toEqual(['name-1.jpg', 'red-shoes.jpg']);
    expect(result.current.low.images[1]).toEqual(renamed);
    expect(listRequests(sent)).toHaveLength(before);

    // Another batch's change touches none of these.
    act(() =>
      replaceImage(queries, '7f1c2a52-52a4-4d5f-9f0e-1d2c3b4a5f61', image(3, 0, { filename: 'elsewhere.jpg' })),
    );
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(result.current.all.images.map((each) => each.filename)).toContain('name-3.jpg');
  });
});
