export * from './boot-suite';
export * from './free-port';
export * from './isolated-database';
export * from './spawn-service';
export * from './test-env';
