import { type BatchStatusResponse, ImageList, type ImageView } from '@renamer/contracts';
import { type InfiniteData, type QueryClient, useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { api } from '../api/client';

/** A page of the batch's images as the list endpoint gives it. */
type ImagePage = { items: ImageView[]; nextCursor: string | null };

export const PAGE = 100;
/** A name scoring under this needs a person's eye: the "Low score" tab. */
export const LOW_SCORE_BELOW = 50;

export type ReviewTab = 'all' | 'review' | 'approved' | 'low' | 'failed';
export type ReviewSort = 'upload' | 'score';

export const TABS: { tab: ReviewTab; label: string }[] = [
  { tab: 'all', label: 'All' },
  { tab: 'review', label: 'To review' },
  { tab: 'approved', label: 'Approved' },
  { tab: 'low', label: 'Low score' },
  { tab: 'failed', label: 'Failed' },
];

/** What each tab asks the server for: the low scores are the ready images, lowest score first, cut below. */
const QUERY: Record<ReviewTab, (sort: ReviewSort) => string> = {
  all: (sort) => `sort=${sort}`,
  review: (sort) => `status=ready&sort=${sort}`,
  approved: (sort) => `status=approved&sort=${sort}`,
  low: () => 'status=ready&sort=score',
  failed: (sort) => `status=failed&sort=${sort}`,
};

const isLow = (image: ImageView) => image.seo !== null && image.seo.score < LOW_SCORE_BELOW;

export const reviewKey = (batchId: string) => ['batch-images', batchId, 'review'] as const;

/**
 * A tab's images, a page at a time. The low-score tab stops asking once a page reaches a score at or above the
 * bar (the server sorts them lowest first), so its count is whole without reading the rest of the batch.
 */
export function useReviewImages(batchId: string, tab: ReviewTab, sort: ReviewSort, enabled = true) {
  const pages = useInfiniteQuery({
    enabled,
    queryKey: [...reviewKey(batchId), tab, tab === 'low' ? 'score' : sort],
    queryFn: ({ pageParam }) =>
      api(
        `/api/image/batch/${batchId}?limit=${PAGE}&${QUERY[tab](sort)}${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`,
        ImageList,
      ),
    initialPageParam: '',
    getNextPageParam: (last) => {
      if (tab === 'low' && !last.items.every(isLow)) return undefined;
      return last.nextCursor ?? undefined;
    },
  });
  // One array per answer, so that what is drawn from it is drawn again only when it changes.
  const images = useMemo(() => {
    const loaded = pages.data?.pages.flatMap((page) => page.items) ?? [];
    return tab === 'low' ? loaded.filter(isLow) : loaded;
  }, [pages.data, tab]);
  // The low-score tab's count needs all of its pages: they are few, since the cut ends them.
  useEffect(() => {
    if (tab === 'low' && pages.hasNextPage && !pages.isFetchingNextPage) void pages.fetchNextPage();
  }, [tab, pages]);
  return { images, pages };
}

/** Each tab's count: from the batch's own counts, the low scores from their list. */
export function tabCounts(status: BatchStatusResponse | undefined, low: number | undefined) {
  return {
    all: status?.total,
    review: status?.counts.ready,
    approved: status?.counts.approved,
    low,
    failed: status ? status.counts.failed + status.counts.cancelled : undefined,
  } satisfies Record<ReviewTab, number | undefined>;
}

/** An image changed by this page: put in place in every tab's loaded pages. */
export function replaceImage(queries: QueryClient, batchId: string, image: ImageView) {
  queries.setQueriesData<InfiniteData<ImagePage>>(
    { queryKey: reviewKey(batchId) },
    (data) =>
      data && {
        ...data,
        pages: data.pages.map((page) => ({
          ...page,
          items: page.items.map((item) => (item.id === image.id ? image : item)),
        })),
      },
  );
}
