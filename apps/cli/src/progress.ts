import { BatchStatusResponse, ServerMessage } from '@renamer/contracts';
import { MultiBar, Presets, type SingleBar } from 'cli-progress';
import WebSocket from 'ws';
import type { ApiClient } from './client';

const FINISHED = new Set(['completed', 'failed', 'cancelled']);
const POLL_MS = 2_000;

/** Where progress goes: always stderr, so that stdout holds only the result. */
export interface Reporter {
  line(text: string): void;
  /** One bar per batch on a terminal; plain lines (at most one per batch per 10 %) otherwise. */
  batch(batchId: string, label: string, total: number): { update(processed: number, status: string): void };
  stop(): void;
}

export function createReporter(quiet: boolean): Reporter {
  const tty = process.stderr.isTTY === true && !quiet;
  const bars = tty
    ? new MultiBar(
        {
          format: '{label} [{bar}] {value}/{total} {status}',
          stream: process.stderr,
          hideCursor: true,
          clearOnComplete: false,
        },
        Presets.shades_classic,
      )
    : undefined;
  return {
    line: (text) => (bars ? bars.log(`${text}\n`) : process.stderr.write(`${text}\n`)),
    batch(batchId, label, total) {
      if (bars) {
        const bar: SingleBar = bars.create(total, 0, { label, status: 'queued' });
        return { update: (processed, status) => bar.update(processed, { status }) };
      }
      let lastTenth = -1;
      return {
        update(processed, status) {
          const tenth = Math.floor((processed / Math.max(1, total)) * 10);
          if (tenth === lastTenth && !FINISHED.has(status)) return;
          lastTenth = tenth;
          process.stderr.write(`batch ${batchId}: ${processed}/${total} ${status}\n`);
        },
      };
    },
    stop: () => bars?.stop(),
  };
}

/**
 * Waits until every batch has finished, showing each one's progress from the WebSocket's events (the API key
 * signs the socket in); should the socket fail, the status is read every 2 s instead. Resolves with the final
 * status of each batch.
 */
export async function watchBatches(
  client: ApiClient,
  batchIds: string[],
  reporter: Reporter,
): Promise<Map<string, BatchStatusResponse>> {
  const statuses = new Map<string, BatchStatusResponse>();
  const shown = new Map<string, ReturnType<Reporter['batch']>>();
  const read = async (batchId: string) => {
    const status = await client.request(`/api/batch/${batchId}/status`, BatchStatusResponse);
    record(status);
  };
  const record = (status: BatchStatusResponse) => {
    statuses.set(status.batchId, status);
    if (!shown.has(status.batchId))
      shown.set(
        status.batchId,
        reporter.batch(status.batchId, status.name ?? status.batchId.slice(0, 8), status.total),
      );
    shown.get(status.batchId)!.update(status.processed, status.status);
  };
  const pending = () => batchIds.filter((batchId) => !FINISHED.has(statuses.get(batchId)?.status ?? ''));

  await Promise.all(batchIds.map(read));
  if (pending().length === 0) return statuses;

  await new Promise<void>((done) => {
    const url = new URL('/api/ws', client.connection.server);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(url, { headers: { authorization: `Bearer ${client.connection.apiKey}` } });
    let poller: NodeJS.Timeout | undefined;
    const finish = () => {
      if (pending().length > 0) return;
      clearInterval(poller);
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      socket.close();
      done();
    };
    const poll = () => {
      poller ??= setInterval(() => void Promise.all(pending().map(read)).then(finish, () => undefined), POLL_MS);
    };
    socket.on('open', () => {
      for (const batchId of pending()) socket.send(JSON.stringify({ type: 'subscribe', batchId }));
    });
    socket.on('message', (data) => {
      const parsed = ServerMessage.safeParse(JSON.parse(String(data)));
      if (!parsed.success) return;
      const message = parsed.data;
      if (message.type === 'subscribed') record(message.status);
      if (message.type === 'batch.status') {
        const previous = statuses.get(message.batchId);
        if (previous)
          record({
            ...previous,
            status: message.status,
            processed: message.processed,
            total: message.total,
            progress: message.progress,
          });
      }
      finish();
    });
    // No socket (a proxy that refuses upgrades, a dropped connection): the status is read instead.
    socket.on('error', poll);
    socket.on('close', poll);
  });
  return statuses;
}
