import { describe, expect, it } from 'vitest';
import { testRunNames } from './test-run-names';

describe('testRunNames', () => {
  it('derives the database and the Redis prefix from one id', () => {
    expect(testRunNames('0a1b2c3d4e')).toEqual({
      id: '0a1b2c3d4e',
      database: 'renamer_test_0a1b2c3d4e',
      redisPrefix: 'renamer-test-0a1b2c3d4e:',
    });
  });

  it('gives every run names of its own that PostgreSQL and the services accept', () => {
    const names = Array.from({ length: 50 }, () => testRunNames());
    expect(new Set(names.map((run) => run.database)).size).toBe(50);
    for (const { database, redisPrefix } of names) {
      expect(database).toMatch(/^[a-z_][a-z0-9_]{0,62}$/);
      expect(redisPrefix).toMatch(/^[A-Za-z0-9_-]+:$/);
    }
  });
});
