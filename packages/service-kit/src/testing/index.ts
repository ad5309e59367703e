export * from './boot-suite';
export * from './free-port';
export * from './spawn-service';
export * from './test-env';
