export * from './account-service';
export * from './presenters';
