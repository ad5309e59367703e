export * from './api-key-secret';
export * from './auth-plugin';
export * from './credentials';
export * from './csrf';
export * from './openapi-security';
export * from './principal';
export * from './rate-limit';
export * from './require-credentials';
