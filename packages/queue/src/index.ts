export * from './queues';
export * from './workers';
