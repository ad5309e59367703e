export {
  type CleanupDeps,
  type CleanupOptions,
  type CleanupTasks,
  createCleanupTasks,
  isCleanupTask,
  ORPHAN_MIN_AGE_MS,
  STUCK_BATCH_ERROR,
} from './cleanup-tasks';
export { type MaintenanceEnv, maintenanceEnv } from './config';
