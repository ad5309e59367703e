export * from './flows';
export * from './queues';
export * from './workers';
