import type { AnalyticsQuery, AnalyticsResponse } from '@renamer/contracts';
import type { AnalyticsRepository, DownloadRepository } from '@renamer/db';
import type { z } from 'zod';

/** The service's activity over a range, aggregated by the database (five statements' worth of work). */
export function createAnalyticsService(deps: {
  analytics: Pick<AnalyticsRepository, 'summary' | 'dailyActivity' | 'dailyRevenue'>;
  downloads: Pick<DownloadRepository, 'activity'>;
}) {
  return {
    async report(range: z.output<typeof AnalyticsQuery>): Promise<AnalyticsResponse> {
      const [summary, activity, revenue, downloads] = await Promise.all([
        deps.analytics.summary(range),
        deps.analytics.dailyActivity(range),
        deps.analytics.dailyRevenue(range),
        deps.downloads.activity(range),
      ]);
      return {
        from: range.from.toISOString(),
        to: range.to.toISOString(),
        ...summary,
        downloads,
        daily: activity.map((day) => ({
          ...day,
          revenue: revenue
            .filter((entry) => entry.date === day.date)
            .map(({ currency, amount }) => ({ currency, amount })),
        })),
      };
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
