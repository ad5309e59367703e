export * from './route-guard';
