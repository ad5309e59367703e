export * from './batch-state';
export * from './email-hash';
export * from './filename';
export * from './image-state';
export * from './naming';
export * from './quota-period';
export * from './return-to';
export * from './status-events';
