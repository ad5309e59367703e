export * from './email-hash';
export * from './plans';
export * from './quota-period';
export * from './return-to';
