export * from './batch-state';
export * from './email-hash';
export * from './filename';
export * from './image-state';
export * from './plans';
export * from './quota-period';
export * from './return-to';
export * from './status-events';
