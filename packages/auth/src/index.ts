export * from './api-key-secret';
export * from './auth-plugin';
export * from './credentials';
export * from './principal';
