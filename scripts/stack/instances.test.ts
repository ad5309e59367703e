import { describe, expect, it } from 'vitest';
import { fleetSize, instancesOf, metricsTargets } from './instances';

/** The processes `npm start` runs for these arguments and ports, as start.ts lists them. */
function started(args: string[], env: NodeJS.ProcessEnv) {
  const size = fleetSize(args);
  return [
    ...instancesOf('dev-idp', 1, env),
    ...instancesOf('api', size.apis, env),
    ...instancesOf('worker', size.workers, env),
    ...instancesOf('admin-api', 1, env),
  ];
}

describe('the metrics targets npm start gives the admin API', () => {
  it('are the API and the worker on their usual ports without flags', () => {
    expect(metricsTargets(started([], {}))).toBe(
      'api=http://127.0.0.1:3000/metrics,worker=http://127.0.0.1:3003/metrics',
    );
  });

  it('follow the ports the API and the worker were started on, without fleet flags', () => {
    expect(fleetSize([]).fleet).toBe(false);
    expect(metricsTargets(started([], { API_PORT: '4000', WORKER_PORT: '4003', ADMIN_API_PORT: '4001' }))).toBe(
      'api=http://127.0.0.1:4000/metrics,worker=http://127.0.0.1:4003/metrics',
    );
  });

  it('name every instance of a fleet on its own port', () => {
    expect(metricsTargets(started(['--api', '2', '--workers', '3'], { API_PORT: '5000' }))).toBe(
      [
        'api=http://127.0.0.1:5000/metrics',
        'api-2=http://127.0.0.1:5100/metrics',
        'worker=http://127.0.0.1:3003/metrics',
        'worker-2=http://127.0.0.1:3103/metrics',
        'worker-3=http://127.0.0.1:3203/metrics',
      ].join(','),
    );
  });
});
