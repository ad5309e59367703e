export * from './address-guard';
export * from './messages';
export * from './schedule';
export * from './send';
