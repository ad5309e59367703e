import { type AnalyticsResponse, AnalyticsResponse as AnalyticsSchema, PLAN_NAMES, PLANS } from '@renamer/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
// Before uPlot, which builds its number formatter from navigator.language as it loads (ui/locale.ts).
import '../ui/supported-navigator-locale';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { api } from '../api/client';
import { formatBytes, formatMoney } from '../ui/format';
import { ProblemLine } from '../ui/problem';

const DAY_MS = 86_400_000;
const isoDate = (time: number) => new Date(time).toISOString().slice(0, 10);

/** Users, batches, images, downloads and revenue over a range of days, with the daily series drawn by uPlot. */
export function AnalyticsSection() {
  const id = useId();
  const [range, setRange] = useState({ from: isoDate(Date.now() - 29 * DAY_MS), to: isoDate(Date.now() + DAY_MS) });
  const analytics = useQuery({
    queryKey: ['admin', 'analytics', range],
    queryFn: () => api(`/api/admin/analytics?from=${range.from}&to=${range.to}`, AnalyticsSchema),
  });
  const data = analytics.data;
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Analytics</h2>
      <p className="actions">
        <label>
          From{' '}
          <input
            type="date"
            value={range.from}
            onChange={(event) => setRange({ ...range, from: event.target.value })}
          />
        </label>
        <label>
          Until{' '}
          <input type="date" value={range.to} onChange={(event) => setRange({ ...range, to: event.target.value })} />
        </label>
      </p>
      <ProblemLine error={analytics.error} />
      {data && (
        <>
          <dl className="figures" aria-label="Totals">
            <Figure term="Users" value={`${data.users.total} (${data.users.new} new)`} />
            <Figure
              term="By plan"
              value={PLANS.map((plan) => `${PLAN_NAMES[plan]} ${data.users.byPlan[plan]}`).join(', ')}
            />
            <Figure term="Batches" value={String(data.batches)} />
            <Figure
              term="Images"
              value={`${data.images.uploaded} uploaded, ${data.images.processed} named, ${data.images.failed} failed`}
            />
            <Figure
              term="Time to a name"
              value={
                data.images.averageProcessingSeconds === null
                  ? '—'
                  : `${data.images.averageProcessingSeconds.toFixed(1)} s on average`
              }
            />
            <Figure
              term="Revenue"
              value={data.revenue.map((entry) => formatMoney(entry.amount, entry.currency)).join(', ') || '—'}
            />
            <Figure
              term="Vision model"
              value={`${data.visionModel.calls} calls, ${data.visionModel.failures} failed (${data.visionModel.timedOut} timed out), ${data.visionModel.fallbacks} named locally; tokens ${data.visionModel.tokens.prompt} in, ${data.visionModel.tokens.completion} out`}
            />
            <Figure
              term="Downloads"
              value={`${data.downloads.total} asked for, ${formatBytes(data.downloads.bytes)} sent`}
            />
            <Figure
              term="Refused files"
              value={data.rejections.map((entry) => `${entry.code} ${entry.count}`).join(', ') || 'none'}
            />
          </dl>
          <DailyChart daily={data.daily} downloads={data.downloads.byDay} />
        </>
      )}
    </section>
  );
}

function Figure({ term, value }: { term: string; value: string }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/**
 * Images, failures, batches and new users per day; the same numbers are in the table under it, with the downloads
 * and the bytes they sent.
 */
function DailyChart({
  daily,
  downloads,
}: {
  daily: AnalyticsResponse['daily'];
  downloads: AnalyticsResponse['downloads']['byDay'];
}) {
  const downloadsOn = new Map(downloads.map((day) => [day.day, day]));
  const target = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = target.current;
    if (!element) return;
    const series: uPlot.AlignedData = [
      daily.map((day) => Date.parse(day.date) / 1000),
      daily.map((day) => day.images),
      daily.map((day) => day.failedImages),
      daily.map((day) => day.batches),
      daily.map((day) => day.newUsers),
    ];
    // The axes and the first two series in the visual system's colours, light or dark as the page is.
    const style = getComputedStyle(element);
    const ink = style.color;
    const grid = style.getPropertyValue('--border').trim() || 'rgba(0,0,0,0.1)';
    const axis = { stroke: ink, grid: { stroke: grid }, ticks: { stroke: grid } };
    const chart = new uPlot(
      {
        width: element.clientWidth || 600,
        height: 240,
        axes: [axis, axis],
        series: [
          {},
          { label: 'Images', stroke: style.getPropertyValue('--accent').trim() || '#1d4ed8' },
          { label: 'Failed', stroke: style.getPropertyValue('--danger').trim() || '#b91c1c' },
          { label: 'Batches', stroke: '#047857' },
          { label: 'New users', stroke: '#7c3aed' },
        ],
      },
      series,
      element,
    );
    // The chart follows its box (a phone turned, a window resized).
    const resize = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height: 240 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [daily]);
  return (
    <figure>
      <div ref={target} role="img" aria-label="Images, failures, batches and new users per day" />
      <figcaption>
        <details>
          <summary>The numbers per day</summary>
          <table>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Images</th>
                <th scope="col">Failed</th>
                <th scope="col">Refused</th>
                <th scope="col">Batches</th>
                <th scope="col">New users</th>
                <th scope="col">Downloads</th>
                <th scope="col">Sent</th>
              </tr>
            </thead>
            <tbody>
              {daily.map((day) => (
                <tr key={day.date}>
                  <th scope="row">{day.date}</th>
                  <td>{day.images}</td>
                  <td>{day.failedImages}</td>
                  <td>{day.rejectedFiles}</td>
                  <td>{day.batches}</td>
                  <td>{day.newUsers}</td>
                  <td>{downloadsOn.get(day.date)?.count ?? 0}</td>
                  <td>{formatBytes(downloadsOn.get(day.date)?.bytes ?? 0)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </figcaption>
    </figure>
  );
}
