import { type BatchStatusResponse, ServerMessage } from '@renamer/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

const FINISHED = new Set(['completed', 'failed', 'cancelled']);
const MAX_BACKOFF_MS = 10_000;

type BatchList = { items: BatchStatusResponse[]; nextCursor: string | null };

/**
 * Keeps the batches on screen live: one WebSocket (the session cookie signs it in), subscribed to every batch
 * not yet finished, each status written into the list's cache. It reconnects by itself, with a growing pause,
 * and subscribes again.
 */
export function useLiveBatches(batchIds: readonly string[]) {
  const queries = useQueryClient();
  const key = batchIds.join(',');

  useEffect(() => {
    if (!key) return;
    let socket: WebSocket | undefined;
    let closed = false;
    let backoff = 500;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const update = (status: Partial<BatchStatusResponse> & { batchId: string }) =>
      queries.setQueryData<BatchList>(
        ['batches'],
        (list) =>
          list && {
            ...list,
            items: list.items.map((batch) => (batch.batchId === status.batchId ? { ...batch, ...status } : batch)),
          },
      );

    const connect = () => {
      socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/ws`);
      socket.onopen = () => {
        backoff = 500;
        for (const batchId of key.split(',')) socket?.send(JSON.stringify({ type: 'subscribe', batchId }));
      };
      socket.onmessage = (event) => {
        const parsed = ServerMessage.safeParse(JSON.parse(String(event.data)));
        if (!parsed.success) return;
        const message = parsed.data;
        if (message.type === 'subscribed') update(message.status);
        if (message.type === 'batch.status') {
          const { batchId, status, processed, total, progress } = message;
          update({ batchId, status, processed, total, progress });
          if (FINISHED.has(status)) void queries.invalidateQueries({ queryKey: ['batches'] });
        }
      };
      socket.onclose = () => {
        if (closed) return;
        timer = setTimeout(connect, backoff);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      };
    };
    connect();
    return () => {
      closed = true;
      clearTimeout(timer);
      socket?.close();
    };
  }, [key, queries]);
}

export const isFinished = (status: string) => FINISHED.has(status);
