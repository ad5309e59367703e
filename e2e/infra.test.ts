import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PipelineStack, startPipelineStack } from './support/pipeline-stack';

/** The operators' files in infra/: the alert rules (promtool) and the dashboard, against the metrics served. */

const PROMETHEUS_DIR = fileURLToPath(new URL('../infra/prometheus/', import.meta.url));
const DASHBOARD = fileURLToPath(new URL('../infra/grafana/renamer-dashboard.json', import.meta.url));
const hasPromtool = spawnSync('promtool', ['--version']).status === 0;
if (!hasPromtool) {
  console.warn(
    'e2e/infra.test.ts: promtool is missing, so the alert rules are not checked: install Debian’s `prometheus` package.',
  );
}

const PROMQL_WORDS = new Set(
  'sum min max avg count rate increase delta deriv irate histogram_quantile label_values by without and or unless on ignoring group_left group_right bool offset le'.split(
    ' ',
  ),
);

/** The metric names a PromQL expression reads: its identifiers, less functions, keywords, labels and ranges. */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, ' ')
    .replace(/"[^"]*"/g, ' ')
    .replace(/\$\w+/g, ' ');
  const names = bare.match(/[A-Za-z_:][A-Za-z0-9_:]*\b(?!\s*\()/g) ?? [];
  return [...new Set(names.filter((name) => !PROMQL_WORDS.has(name) && !/^\d/.test(name)))];
}

/** Every series name a /metrics text can hold: each family, and a histogram's _bucket, _sum and _count. */
function exportedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name!);
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${name}${suffix}`);
  }
  return names;
}

let stack: PipelineStack;
let exported: Set<string>;

beforeAll(async () => {
  stack = await startPipelineStack('infra');
  const api = await stack.startApi();
  const worker = await stack.startWorker({ ANALYSIS_STEPS: '' });
  const texts = await Promise.all([api.url, worker.url].map(async (url) => (await fetch(`${url}/metrics`)).text()));
  // `up` is Prometheus's own, one per scraped target.
  exported = new Set(['up', ...texts.flatMap((text) => [...exportedNames(text)])]);
}, 60_000);
afterAll(() => stack?.close());

describe('Prometheus alert rules', () => {
  it.skipIf(!hasPromtool)('are valid rules, and each fires on the series that should raise it', () => {
    const check = execFileSync('promtool', ['check', 'rules', 'alerts.yml'], { cwd: PROMETHEUS_DIR, encoding: 'utf8' });
    expect(check).toContain('SUCCESS: 5 rules found');
    const test = execFileSync('promtool', ['test', 'rules', 'alerts.test.yml'], {
      cwd: PROMETHEUS_DIR,
      encoding: 'utf8',
    });
    expect(test).toContain('SUCCESS');
  });

  it('read only metrics the services export', () => {
    const rules = readFileSync(`${PROMETHEUS_DIR}alerts.yml`, 'utf8');
    const read = [...rules.matchAll(/^\s+expr: (.+)$/gm)].flatMap(([, expr]) => metricNames(expr!));
    expect(new Set(read)).toEqual(
      new Set(['queue_jobs', 'jobs_finished_total', 'http_requests_total', 'health_check_up', 'up']),
    );
    expect(read.filter((name) => !exported.has(name))).toEqual([]);
  });
});

describe('the Grafana dashboard', () => {
  it('is a dashboard whose every panel queries metrics the services export', () => {
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
      uid: string;
      panels: { title: string; targets: { expr: string }[] }[];
    };
    expect(dashboard.uid).toBe('renamer-overview');
    const titles = dashboard.panels.map((panel) => panel.title);
    for (const topic of ['Requests', '5xx', 'latency', 'Jobs', 'Queue depth', 'WebSocket', 'refused at upload']) {
      expect(titles.some((title) => title.includes(topic))).toBe(true);
    }
    const read = dashboard.panels.flatMap((panel) => panel.targets.flatMap((target) => metricNames(target.expr)));
    expect(read.filter((name) => !exported.has(name))).toEqual([]);
  });
});
