export * from './auth';
export * from './batches';
export * from './enums';
export * from './errors';
export * from './events';
export * from './health';
export * from './jobs';
export * from './text';
