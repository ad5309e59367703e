export * from './health-routes';
export * from './http-service';
export * from './metrics';
export * from './openapi';
export * from './problem';
export * from './run-service';
