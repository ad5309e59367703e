// What other workspaces' tests (the admin API's, e2e/) start the API with, as `@renamer/api/testing`.
export * from './api-stack';
export * from './auth-stack';
export * from './images';
