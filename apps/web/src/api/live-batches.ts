import type { BatchStatusResponse, ServerMessage } from '@renamer/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useRef, useSyncExternalStore } from 'react';
import type { Connection, LiveSocket } from './live-socket';

const FINISHED = new Set(['completed', 'failed', 'cancelled']);

type BatchList = { items: BatchStatusResponse[]; nextCursor: string | null };

/** The page's one socket, opened by the app once someone is signed in. */
export const LiveSocketContext = createContext<LiveSocket | undefined>(undefined);

/** Each message about the given batches, handed to `onMessage`, and how the socket is doing. */
export function useBatchEvents(batchIds: readonly string[], onMessage: (message: ServerMessage) => void): Connection {
  const live = useContext(LiveSocketContext);
  const handler = useRef(onMessage);
  handler.current = onMessage;
  const key = batchIds.join(',');

  useEffect(() => {
    if (!live || !key) return;
    const followed = new Set(key.split(','));
    const unlisten = live.listen((message) => {
      if ('batchId' in message && followed.has(message.batchId)) handler.current(message);
    });
    const unfollow = [...followed].map((batchId) => live.follow(batchId));
    return () => {
      unlisten();
      for (const stop of unfollow) stop();
    };
  }, [live, key]);

  return useSyncExternalStore(live?.watch ?? noWatch, () => live?.connection ?? 'connecting');
}
const noWatch = () => () => undefined;

/**
 * Keeps the batches on screen live: each status written into the list's cache and the batch's own
 * (`['batch', id]`); an image's change refreshes the batch's images (`['batch-images', id, …]`).
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
