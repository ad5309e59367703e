import { randomBytes } from 'node:crypto';

export interface TestRunNames {
  id: string;
  database: string;
  /** Keys and channels of this run start with it: the services read it as REDIS_PREFIX. */
  redisPrefix: string;
}

export function testRunNames(id: string = randomBytes(5).toString('hex')): TestRunNames {
  return { id, database: `renamer_test_${id}`, redisPrefix: `renamer-test-${id}:` };
}
