export * from './batch-scheduler';
export * from './batch-tracker';
export * from './batch-view';
export * from './progress';
export * from './propose-again';
