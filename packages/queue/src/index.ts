export * from './queues';
export * from './workers';
export * from './flows';
