import { randomUUID } from 'node:crypto';
import { createDb, createSessionRepository, createUserIdentityRepository, createUserRepository } from '@renamer/db';
import { emailHash } from '@renamer/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { createSignInService, DEFAULT_DISPLAY_NAME } from '../src/services/sign-in';

const client = createDb(process.env.DATABASE_URL!, { max: 2 });
afterAll(() => client.close());

const adminEmail = `boss-${randomUUID().slice(0, 8)}@renamer.test`;
const service = createSignInService({
  users: createUserRepository(client.db),
  identities: createUserIdentityRepository(client.db),
  sessions: createSessionRepository(client.db),
  adminEmailHashes: new Set([emailHash(adminEmail)]),
  sessionTtlSeconds: 3600,
  announceEnded: async () => {},
});
const identity = (email: string, emailVerified: boolean | undefined) => ({
  issuer: 'https://issuer.test',
  subject: randomUUID(),
  email,
  emailVerified,
  name: 'Someone',
});

describe('sign-in and unverified email addresses', () => {
  it('makes an ADMIN_EMAILS address an admin only when the provider says it is verified', async () => {
    expect((await service.signIn(identity(adminEmail, true), {})).user.role).toBe('admin');
    expect((await service.signIn(identity(adminEmail, undefined), {})).user.role).toBe('user');
  });

  it('refuses an address the provider says is not verified', async () => {
    await expect(service.signIn(identity(adminEmail, false), {})).rejects.toMatchObject({ code: 'unauthenticated' });
  });
});

describe('sign-in with a second provider configured', () => {
  const linking = createSignInService({
    users: createUserRepository(client.db),
    identities: createUserIdentityRepository(client.db),
    sessions: createSessionRepository(client.db),
    adminEmailHashes: new Set(),
    sessionTtlSeconds: 3600,
    announceEnded: async () => {},
    githubProvider: 'https://github.test',
  });

  it('refuses an address its provider does not vouch for, so nobody can claim an email before its owner links to it', async () => {
    const email = `claimed-${randomUUID().slice(0, 8)}@renamer.test`;
    await expect(linking.signIn(identity(email, undefined), {})).rejects.toMatchObject({ code: 'unauthenticated' });
    const accounts = async () =>
      (
        await client.sql<{ n: number }[]>`select count(*)::int as n from users where email_hash = ${emailHash(email)}`
      )[0]!.n;
    expect(await accounts()).toBe(0);
    expect((await linking.signIn(identity(email, true), {})).created).toBe(true);
    expect(await accounts()).toBe(1);
  });

  it('joins a GitHub sign-in to an account made before GitHub was on only once its provider vouched for the email', async () => {
    const email = `early-${randomUUID().slice(0, 8)}@renamer.test`;
    const github = { ...identity(email, true), issuer: 'https://github.test', subject: randomUUID() };
    // Signed up while OIDC was the only provider, which did not say whether the address is verified.
    const early = identity(email, undefined);
    const squatter = (await service.signIn(early, {})).user;
    const apart = await linking.signIn(github, {});
    expect(apart.created).toBe(true);
    expect(apart.user.id).not.toBe(squatter.id);

    // The real owner of an address, vouched for, is joined by their GitHub identity.
    const owner = identity(`owner-${randomUUID().slice(0, 8)}@renamer.test`, undefined);
    await service.signIn(owner, {});
    const vouched = (await linking.signIn({ ...owner, emailVerified: true }, {})).user;
    const joined = await linking.signIn(
      { ...identity(owner.email, true), issuer: 'https://github.test', subject: randomUUID() },
      {},
    );
    expect(joined).toMatchObject({ created: false, user: { id: vouched.id } });
  });
});

describe('the display name a provider sends', () => {
  const signInNamed = (name: string | undefined) =>
    service.signIn({ ...identity(`n-${randomUUID().slice(0, 8)}@renamer.test`, true), name }, {});

  it('is kept when it is a name we accept, cut to 80 characters', async () => {
    expect((await signInNamed('  Ada Lovelace ')).user.displayName).toBe('Ada Lovelace');
    expect((await signInNamed('x'.repeat(100))).user.displayName).toBe('x'.repeat(80));
  });

  it('falls back to the neutral default when missing or holding control characters (NUL included)', async () => {
    expect((await signInNamed(undefined)).user.displayName).toBe(DEFAULT_DISPLAY_NAME);
    expect((await signInNamed('a\u0000b')).user.displayName).toBe(DEFAULT_DISPLAY_NAME);
    expect((await signInNamed('line\nbreak')).user.displayName).toBe(DEFAULT_DISPLAY_NAME);
  });
});
