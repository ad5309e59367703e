import { inject } from 'vitest';

// Code under test reads DATABASE_URL, REDIS_URL, REDIS_PREFIX and STORAGE_DIR from the environment: give it the
// run's (vitest.global-setup.ts).
Object.assign(process.env, inject('testRunEnv'));
