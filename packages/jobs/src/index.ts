export * from './batch-scheduler';
export { type MaintenanceEnv, maintenanceEnv } from './cleanup-config';
export {
  type CleanupDeps,
  type CleanupOptions,
  type CleanupTasks,
  createCleanupTasks,
  isCleanupTask,
  ORPHAN_MIN_AGE_MS,
  STUCK_BATCH_ERROR,
} from './cleanup-tasks';
export * from './flows';
export * from './queues';
export * from './workers';
