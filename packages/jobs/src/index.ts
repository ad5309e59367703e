export * from './batch-scheduler';
export { type CleanupEnv, cleanupEnv, retentionEnv } from './cleanup-config';
export {
  type CleanupDeps,
  type CleanupOptions,
  type CleanupTasks,
  createCleanupTasks,
  isCleanupTask,
  STUCK_BATCH_ERROR,
} from './cleanup-tasks';
export * from './flows';
export * from './queues';
export * from './webhook-notices';
export * from './workers';
