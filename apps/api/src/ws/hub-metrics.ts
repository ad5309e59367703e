import type { Metrics } from '@renamer/http';
import { Gauge } from 'prom-client';
import type { ProgressHub } from './progress-hub';

/** Open WebSocket connections and rooms of this instance, read when Prometheus scrapes. */
export function registerHubMetrics(metrics: Metrics, hub: Pick<ProgressHub, 'stats'>): void {
  new Gauge({
    name: 'ws_connections',
    help: 'Open WebSocket connections on this API instance.',
    registers: [metrics.registry],
    collect() {
      this.set(hub.stats().connections);
    },
  });
  new Gauge({
    name: 'ws_rooms',
    help: 'Batches with at least one subscriber on this API instance.',
    registers: [metrics.registry],
    collect() {
      this.set(hub.stats().rooms);
    },
  });
}
