import type { Profile } from '@renamer/contracts';

/** Grace, on Basic with no naming defaults, as `GET /api/auth/me` answers; `fields` change what a test needs. */
export const profile = (fields: Partial<Profile> = {}): Profile => ({
  id: '2b7c9a4e-1d3f-4e5a-8b6c-7d8e9f0a1b2c',
  displayName: 'Grace',
  plan: 'basic',
  role: 'user',
  quota: 50,
  template: null,
  instructions: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  ...fields,
});
