// @vitest-environment jsdom
import type { AnalyticsResponse } from '@renamer/contracts';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, renderWithQueries } from '../../test/render';
import { formatBytes } from '../ui/format';
import { AnalyticsSection } from './analytics';

const day = (date: string) => ({
  date,
  newUsers: 0,
  batches: 1,
  images: 4,
  failedImages: 0,
  rejectedFiles: 0,
  revenue: [],
});

const REPORT: AnalyticsResponse = {
  from: '2026-11-01T00:00:00.000Z',
  to: '2026-11-03T00:00:00.000Z',
  users: { total: 3, new: 1, byPlan: { basic: 2, pro: 1, max: 0 } },
  batches: 2,
  images: { uploaded: 8, processed: 8, failed: 0, averageProcessingSeconds: 2.5 },
  visionModel: {
    calls: 0,
    tokens: { prompt: 0, completion: 0 },
    failures: 0,
    timedOut: 0,
    fallbacks: 8,
    instructionsUnused: 0,
  },
  revenue: [],
  downloads: {
    total: 5,
    bytes: 3_000_000_000,
    byDay: [
      { day: '2026-11-01', count: 5, bytes: 3_000_000_000 },
      { day: '2026-11-02', count: 0, bytes: 0 },
    ],
  },
  rejections: [],
  daily: [day('2026-11-01'), day('2026-11-02')],
};

// jsdom draws nothing (no canvas): the chart is uPlot's, seen in Chromium; the numbers are in the table.
vi.mock('uplot', () => ({
  default: class {
    setSize() {}
    destroy() {}
  },
}));

// jsdom lays nothing out: the chart's box never changes size.
beforeEach(() => {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      disconnect() {}
    },
  );
});
afterEach(cleanup);

describe('the analytics page', () => {
  it('shows the downloads of the range and the bytes they sent, in total and per day', async () => {
    fakeApi({ 'GET /api/admin/analytics': { json: REPORT } });
    renderWithQueries(<AnalyticsSection />);
    const totals = await screen.findByLabelText('Totals', {}, { timeout: 5_000 });
    expect(within(totals).getByText('Downloads').nextSibling?.textContent).toBe(
      `5 asked for, ${formatBytes(3_000_000_000)} sent`,
    );
    expect(formatBytes(3_000_000_000)).toMatch(/^3\sGB$/);
    const rows = screen
      .getAllByRole('row', { hidden: true })
      .map((row) => [...row.children].map((cell) => cell.textContent));
    expect(rows[0]).toEqual(['Day', 'Images', 'Failed', 'Refused', 'Batches', 'New users', 'Downloads', 'Sent']);
    expect(rows.slice(1).map((row) => [row[0], row[6], row[7]])).toEqual([
      ['2026-11-01', '5', formatBytes(3_000_000_000)],
      ['2026-11-02', '0', formatBytes(0)],
    ]);
  });
});
