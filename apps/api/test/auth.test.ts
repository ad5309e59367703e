import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { CSRF_COOKIE, hashApiKey, SESSION_COOKIE } from '@renamer/auth';
import { emailHash } from '@renamer/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthStack, browser, startAuthStack } from './support/auth-stack';

let stack: AuthStack;
const uniqueEmail = (who: string) => `${who}-${randomUUID().slice(0, 8)}@Example.com`;

beforeAll(async () => {
  stack = await startAuthStack({ name: 'api-auth', adminEmails: 'boss@renamer.test' });
});
afterAll(() => stack?.close());

async function signedIn(email = uniqueEmail('user'), name = 'Test Person') {
  const { jar } = await stack.signIn(email, name);
  return browser(stack.apiUrl, jar);
}

async function me(client: ReturnType<typeof browser>) {
  const response = await client.fetch('/api/auth/me');
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('sign-in through the OpenID provider', () => {
  it('creates the user on first sign-in with plan basic and quota 50, storing no email', async () => {
    const email = uniqueEmail('ada');
    const { jar, landedOn } = await stack.signIn(email, 'Ada Lovelace');
    expect(landedOn?.pathname).toBe('/after-sign-in');
    const session = jar.get(stack.apiUrl, SESSION_COOKIE);
    expect(session).toBeTruthy();

    const profile = await me(browser(stack.apiUrl, jar));
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({ displayName: 'Ada Lovelace', plan: 'basic', quota: 50, role: 'user' });

    const [row] = await stack.platform.db.sql`select * from users where id = ${profile.body.id as string}`;
    expect(row?.email_hash).toBe(emailHash(email));
    expect(JSON.stringify(row).toLowerCase()).not.toContain(email.toLowerCase());
    expect(JSON.stringify(row).toLowerCase()).not.toContain('example.com');
  });

  it('finds the same user on a later sign-in, whatever the email case', async () => {
    const email = uniqueEmail('grace');
    const first = await me(await signedIn(email, 'Grace Hopper'));
    const second = await me(await signedIn(email.toUpperCase(), 'Someone Else'));
    expect(second.body.id).toBe(first.body.id);
    expect(second.body.displayName).toBe('Grace Hopper');
  });

  it('makes an email listed in ADMIN_EMAILS an admin', async () => {
    const profile = await me(await signedIn('Boss@Renamer.test'));
    expect(profile.body.role).toBe('admin');
  });

  it.each(['https://evil.example/steal', '//evil.example/x', '/\\evil.example'])(
    'refuses to return to another host (%s) and lands on / instead',
    async (returnTo) => {
      const { landedOn } = await stack.signIn(uniqueEmail('redirect'), 'R', returnTo);
      expect(landedOn?.origin).toBe(stack.apiUrl);
      expect(landedOn?.pathname).toBe('/');
    },
  );

  it('refuses a callback that was not started by this browser', async () => {
    const response = await fetch(`${stack.apiUrl}/api/auth/callback?code=abc&state=forged`, { redirect: 'manual' });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'unauthenticated' });
  });

  it('starts the code flow with PKCE, state and the openid, email and profile scopes', async () => {
    const response = await fetch(`${stack.apiUrl}/api/auth/login`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(location.origin).toBe(new URL(stack.issuer).origin);
    expect(location.searchParams.get('scope')).toBe('openid email profile');
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('state')).toBeTruthy();
  });
});

describe('sessions', () => {
  it('refuses a request without credentials with 401 unauthenticated', async () => {
    const response = await fetch(`${stack.apiUrl}/api/auth/me`);
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await response.json()).toMatchObject({ code: 'unauthenticated' });
  });

  it.each([
    ['PATCH', '/api/auth/me'],
    ['POST', '/api/auth/api-keys'],
  ])('refuses %s %s without credentials with 401 before looking at the body', async (method, path) => {
    const response = await fetch(`${stack.apiUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ unexpected: true }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'unauthenticated' });
  });

  it('refuses a tampered session token', async () => {
    const client = await signedIn();
    const token = client.jar.get(stack.apiUrl, SESSION_COOKIE)!;
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: randomUUID() })).toString('base64url');
    const response = await fetch(`${stack.apiUrl}/api/auth/me`, {
      headers: { cookie: `${SESSION_COOKIE}=${header}.${forged}.${signature}` },
    });
    expect(response.status).toBe(401);
  });

  it('refuses an expired token and a session that expired in the database', async () => {
    const client = await signedIn();
    const profile = await me(client);
    const userId = profile.body.id as string;
    const live = await stack.repositories.sessions.create({ userId, expiresAt: new Date(Date.now() + 60_000) });
    const expiredToken = stack.api.jwt.sign({ sid: live.id, sub: userId, exp: Math.floor(Date.now() / 1000) - 5 });
    const byToken = await fetch(`${stack.apiUrl}/api/auth/me`, {
      headers: { cookie: `${SESSION_COOKIE}=${expiredToken}` },
    });
    expect(byToken.status).toBe(401);

    const ended = await stack.repositories.sessions.create({ userId, expiresAt: new Date(Date.now() - 1000) });
    const validToken = stack.api.jwt.sign({ sid: ended.id, sub: userId });
    const byRow = await fetch(`${stack.apiUrl}/api/auth/me`, {
      headers: { cookie: `${SESSION_COOKIE}=${validToken}` },
    });
    expect(byRow.status).toBe(401);
  });

  it('logs out: the session is revoked at once', async () => {
    const client = await signedIn();
    const token = client.jar.get(stack.apiUrl, SESSION_COOKIE)!;
    const csrf = await client.csrfToken();
    const logout = await client.fetch('/api/auth/logout', { method: 'POST', csrf });
    expect(logout.status).toBe(204);
    const reused = await fetch(`${stack.apiUrl}/api/auth/me`, { headers: { cookie: `${SESSION_COOKIE}=${token}` } });
    expect(reused.status).toBe(401);
  });
});

describe('CSRF for cookie-authenticated changes', () => {
  const rename = (client: ReturnType<typeof browser>, csrf: string) =>
    client.fetch('/api/auth/me', { method: 'PATCH', json: { displayName: 'Renamed' }, csrf });

  /** The victim's session cookie with the `_csrf` cookie an attacker planted beside it. */
  function plantedBeside(victim: ReturnType<typeof browser>, attacker: ReturnType<typeof browser>) {
    const session = victim.jar.get(stack.apiUrl, SESSION_COOKIE);
    const planted = attacker.jar.get(stack.apiUrl, CSRF_COOKIE);
    return { cookie: `${SESSION_COOKIE}=${session}; ${CSRF_COOKIE}=${planted}` };
  }

  it.each([
    ['a visitor who is not signed in', async () => browser(stack.apiUrl)],
    ['another signed-in user', () => signedIn()],
  ])('refuses a token and cookie minted for %s, planted beside a session', async (_who, makeAttacker) => {
    const victim = await signedIn();
    const attacker = await makeAttacker();
    const token = await attacker.csrfToken();
    const forged = await fetch(`${stack.apiUrl}/api/auth/me`, {
      method: 'PATCH',
      headers: { ...plantedBeside(victim, attacker), 'x-csrf-token': token, 'content-type': 'application/json' },
      body: JSON.stringify({ displayName: 'Forged' }),
    });
    expect(forged.status).toBe(403);
    expect(await forged.json()).toMatchObject({ code: 'forbidden' });
    expect((await me(victim)).body.displayName).toBe('Test Person');
  });

  it('refuses a token minted before sign-in, and accepts one minted for the session', async () => {
    const client = browser(stack.apiUrl);
    const beforeSignIn = await client.csrfToken();
    await stack.signIn(uniqueEmail('early'), 'Early Bird', '/after-sign-in', client.jar);
    expect((await rename(client, beforeSignIn)).status).toBe(403);
    expect((await me(client)).body.displayName).toBe('Early Bird');
    expect((await rename(client, await client.csrfToken())).status).toBe(200);
  });

  it('refuses a change without the token and accepts it with the token', async () => {
    const client = await signedIn();
    const without = await client.fetch('/api/auth/me', { method: 'PATCH', json: { displayName: 'Changed' } });
    expect(without.status).toBe(403);
    expect(await without.json()).toMatchObject({ code: 'forbidden' });
    expect((await me(client)).body.displayName).toBe('Test Person');

    const forged = await client.fetch('/api/auth/me', {
      method: 'PATCH',
      json: { displayName: 'Changed' },
      csrf: 'not-a-real-token',
    });
    expect(forged.status).toBe(403);

    const withToken = await client.fetch('/api/auth/me', {
      method: 'PATCH',
      json: { displayName: '  Changed Name ' },
      csrf: await client.csrfToken(),
    });
    expect(withToken.status).toBe(200);
    expect(await withToken.json()).toMatchObject({ displayName: 'Changed Name' });
  });
});

describe('API keys', () => {
  async function createKey(client: ReturnType<typeof browser>, body: Record<string, unknown>) {
    const response = await client.fetch('/api/auth/api-keys', {
      method: 'POST',
      json: body,
      csrf: await client.csrfToken(),
    });
    return { status: response.status, body: (await response.json()) as Record<string, string> };
  }

  it('shows the key once, stores only its hash, and authenticates every route without CSRF', async () => {
    const client = await signedIn();
    const created = await createKey(client, { name: 'ci script' });
    expect(created.status).toBe(201);
    const { key, prefix, id } = created.body;
    expect(key!.length).toBeGreaterThanOrEqual(43);
    expect(key!.startsWith(prefix!)).toBe(true);

    const rows = await stack.platform.db.sql`select * from api_keys where id = ${id!}`;
    expect(rows[0]?.key_hash).toBe(hashApiKey(key!));
    expect(JSON.stringify(rows)).not.toContain(key!);

    const auth = { authorization: `Bearer ${key}` };
    const profile = await fetch(`${stack.apiUrl}/api/auth/me`, { headers: auth });
    expect(profile.status).toBe(200);
    const renamed = await fetch(`${stack.apiUrl}/api/auth/me`, {
      method: 'PATCH',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ displayName: 'Scripted' }),
    });
    expect(renamed.status).toBe(200);

    const listed = (await (await client.fetch('/api/auth/api-keys')).json()) as { items: unknown[] };
    expect(listed.items).toEqual([expect.objectContaining({ id, name: 'ci script', prefix })]);
    expect(JSON.stringify(listed)).not.toContain(key!);
    // Written off the request's path, so it lands a moment after the answer.
    await expect
      .poll(
        async () => (await stack.platform.db.sql`select last_used_at from api_keys where id = ${id!}`)[0]?.last_used_at,
      )
      .not.toBeNull();
  });

  it('stops accepting a deleted key', async () => {
    const client = await signedIn();
    const { body } = await createKey(client, { name: 'temporary' });
    const deleted = await client.fetch(`/api/auth/api-keys/${body.id}`, {
      method: 'DELETE',
      csrf: await client.csrfToken(),
    });
    expect(deleted.status).toBe(204);
    const response = await fetch(`${stack.apiUrl}/api/auth/me`, { headers: { authorization: `Bearer ${body.key}` } });
    expect(response.status).toBe(401);
  });

  it('stops accepting an expired key', async () => {
    const client = await signedIn();
    const { body } = await createKey(client, {
      name: 'short-lived',
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    await stack.platform.db.sql`update api_keys set expires_at = now() - interval '1 second' where id = ${body.id!}`;
    const response = await fetch(`${stack.apiUrl}/api/auth/me`, { headers: { authorization: `Bearer ${body.key}` } });
    expect(response.status).toBe(401);
  });

  it('refuses an expiry in the past and a made-up key', async () => {
    const client = await signedIn();
    const past = await createKey(client, { name: 'x', expiresAt: '2001-01-01T00:00:00.000Z' });
    expect(past.status).toBe(400);
    const made = await fetch(`${stack.apiUrl}/api/auth/me`, {
      headers: { authorization: `Bearer rn_${'a'.repeat(43)}` },
    });
    expect(made.status).toBe(401);
  });

  it("answers not_found for another user's key and leaves it working", async () => {
    const owner = await signedIn();
    const { body } = await createKey(owner, { name: 'mine' });
    const other = await signedIn();
    const response = await other.fetch(`/api/auth/api-keys/${body.id}`, {
      method: 'DELETE',
      csrf: await other.csrfToken(),
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'not_found' });
    expect(
      (await fetch(`${stack.apiUrl}/api/auth/me`, { headers: { authorization: `Bearer ${body.key}` } })).status,
    ).toBe(200);
  });
});

describe('bans', () => {
  it('refuses a banned user at once, by session and by API key alike', async () => {
    const client = await signedIn();
    const { body: key } = await (async () => {
      const response = await client.fetch('/api/auth/api-keys', {
        method: 'POST',
        json: { name: 'k' },
        csrf: await client.csrfToken(),
      });
      return { body: (await response.json()) as { key: string } };
    })();
    const userId = (await me(client)).body.id as string;
    await stack.repositories.users.ban(userId, 'abuse', new Date());

    const bySession = await client.fetch('/api/auth/me');
    expect(bySession.status).toBe(403);
    expect(await bySession.json()).toMatchObject({ code: 'banned' });
    const byKey = await fetch(`${stack.apiUrl}/api/auth/me`, { headers: { authorization: `Bearer ${key.key}` } });
    expect(byKey.status).toBe(403);
    expect(await byKey.json()).toMatchObject({ code: 'banned' });
  });

  it('refuses, on the very next request, a key used a moment before and banned directly in the database', async () => {
    const client = await signedIn();
    const created = await client.fetch('/api/auth/api-keys', {
      method: 'POST',
      json: { name: 'busy script' },
      csrf: await client.csrfToken(),
    });
    const { key } = (await created.json()) as { key: string };
    const auth = { authorization: `Bearer ${key}` };
    const before = await fetch(`${stack.apiUrl}/api/auth/me`, { headers: auth });
    expect(before.status).toBe(200);
    const { id } = (await before.json()) as { id: string };

    await stack.platform.db.sql`update users set banned_at = now(), ban_reason = 'abuse' where id = ${id}`;
    const after = await fetch(`${stack.apiUrl}/api/auth/me`, { headers: auth });
    expect(after.status).toBe(403);
    expect(await after.json()).toMatchObject({ code: 'banned' });
  });
});

describe('account', () => {
  it('reports the quota of the current calendar month', async () => {
    const client = await signedIn();
    const response = await client.fetch('/api/auth/quota');
    const body = (await response.json()) as Record<string, unknown>;
    const now = new Date();
    expect(body).toMatchObject({ plan: 'basic', quota: 50, used: 0, remaining: 50 });
    expect(body.periodStart).toBe(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString());
  });

  it('deletes the account with its objects, and its session stops working', async () => {
    const client = await signedIn();
    const userId = (await me(client)).body.id as string;
    const key = `users/${userId}/images/${randomUUID()}`;
    await stack.platform.store.put(key, Readable.from([Buffer.from('bytes')]), { size: 5 });

    const response = await client.fetch('/api/auth/me', { method: 'DELETE', csrf: await client.csrfToken() });
    expect(response.status).toBe(204);
    expect(await stack.repositories.users.findById(userId)).toBeNull();
    expect(await stack.platform.store.stat(key)).toBeNull();
    expect((await client.fetch('/api/auth/me')).status).toBe(401);
  });
});
