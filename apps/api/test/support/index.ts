// What the end-to-end tests (e2e/) start the API with, as `@renamer/api/testing`.
export * from './api-stack';
export * from './images';
