export * from './batch-tracker';
export * from './batch-view';
export * from './progress-channel';
