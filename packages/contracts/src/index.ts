export * from './auth';
export * from './enums';
export * from './errors';
export * from './health';
export * from './jobs';
export * from './batches';
export * from './events';
