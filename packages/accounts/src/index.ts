export * from './account-service';
