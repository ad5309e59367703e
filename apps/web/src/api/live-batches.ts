import { type BatchStatusResponse, ServerMessage } from '@renamer/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';

const FINISHED = new Set(['completed', 'failed', 'cancelled']);
const MAX_BACKOFF_MS = 10_000;

type BatchList = { items: BatchStatusResponse[]; nextCursor: string | null };
export type Connection = 'connecting' | 'live' | 'reconnecting';

/**
 * One WebSocket (the session cookie signs it in) subscribed to the given batches, each message handed to
 * `onMessage`. It reconnects by itself, with a growing pause, and subscribes again; what it says of its
 * connection lets a page tell people that live updates are interrupted.
 */
export function useBatchEvents(batchIds: readonly string[], onMessage: (message: ServerMessage) => void): Connection {
  const key = batchIds.join(',');
  const handler = useRef(onMessage);
  handler.current = onMessage;
  const [connection, setConnection] = useState<Connection>('connecting');

  useEffect(() => {
    if (!key) return;
    let socket: WebSocket | undefined;
    let closed = false;
    let backoff = 500;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const connect = () => {
      socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/ws`);
      socket.onopen = () => {
        backoff = 500;
        setConnection('live');
        for (const batchId of key.split(',')) socket?.send(JSON.stringify({ type: 'subscribe', batchId }));
      };
      socket.onmessage = (event) => {
        const parsed = ServerMessage.safeParse(JSON.parse(String(event.data)));
        if (parsed.success) handler.current(parsed.data);
      };
      socket.onclose = () => {
        if (closed) return;
        setConnection('reconnecting');
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
  }, [key]);
  return connection;
}

/**
 * Keeps the batches on screen live: every batch not yet finished is followed, each status written into the
 * list's cache and the batch's own (`['batch', id]`); an image's change refreshes the batch's images.
 */
export function useLiveBatches(batchIds: readonly string[]): Connection {
  const queries = useQueryClient();
  return useBatchEvents(batchIds, (message) => {
    if (message.type === 'image.status') {
      void queries.invalidateQueries({ queryKey: ['batch-images', message.batchId] }, { cancelRefetch: false });
      return;
    }
    if (message.type !== 'subscribed' && message.type !== 'batch.status') return;
    const status =
      message.type === 'subscribed'
        ? message.status
        : (({ batchId, status, processed, total, progress }) => ({ batchId, status, processed, total, progress }))(
            message,
          );
    const merge = <T extends { batchId: string }>(batch: T): T =>
      batch.batchId === status.batchId ? { ...batch, ...status } : batch;
    queries.setQueryData<BatchList>(['batches'], (list) => list && { ...list, items: list.items.map(merge) });
    queries.setQueryData<BatchStatusResponse>(['batch', status.batchId], (batch) => batch && merge(batch));
    if (FINISHED.has(status.status)) {
      void queries.invalidateQueries({ queryKey: ['batches'] });
      void queries.invalidateQueries({ queryKey: ['batch', status.batchId] });
      void queries.invalidateQueries({ queryKey: ['batch-images', status.batchId] });
    }
  });
}

export const isFinished = (status: string) => FINISHED.has(status);

/** Said where live updates are shown, while the socket is away. */
export const connectionNotice = (connection: Connection) =>
  connection === 'reconnecting' ? 'Live updates interrupted: reconnecting…' : undefined;
