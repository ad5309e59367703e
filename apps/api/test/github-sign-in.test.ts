import { randomUUID } from 'node:crypto';
import { CSRF_COOKIE, SESSION_COOKIE } from '@renamer/auth';
import { type CookieJar, signInThroughDevIdp } from '@renamer/dev-idp/testing';
import { emailHash } from '@renamer/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthStack, browser, startAuthStack } from './support/auth-stack';
import { type GithubAccount, startGithubServer } from './support/github-server';

const CLIENT = { clientId: 'Iv1.renamer-test', clientSecret: 'github-test-secret' };

let github: Awaited<ReturnType<typeof startGithubServer>>;
let stack: AuthStack;
/** An API without GitHub, in development mode (cookies without Secure). */
let plain: AuthStack;

beforeAll(async () => {
  github = await startGithubServer(CLIENT);
  [stack, plain] = await Promise.all([
    startAuthStack({
      name: 'api-github',
      apiEnv: {
        GITHUB_CLIENT_ID: CLIENT.clientId,
        GITHUB_CLIENT_SECRET: CLIENT.clientSecret,
        GITHUB_BASE_URL: github.url,
        GITHUB_API_URL: github.url,
      },
    }),
    startAuthStack({ name: 'api-no-github', apiEnv: { NODE_ENV: 'development' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([stack?.close(), plain?.close()]);
  await github?.close();
});

const uniqueEmail = (who: string) => `${who}-${randomUUID().slice(0, 8)}@example.com`;
let nextId = Math.floor(Math.random() * 1e9);
const account = (email: string, name: string | null, verified = true): GithubAccount => ({
  id: nextId++,
  login: `octo${nextId}`,
  name,
  emails: [
    { email: `${nextId}+octo@users.noreply.github.com`, primary: false, verified: true },
    { email, primary: true, verified },
  ],
});

/** Every response of the API during a flow, for its Set-Cookie headers. */
function recordingFetch(origin: string, seen: Response[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (new URL(String(input)).origin === origin) seen.push(response);
    return response;
  };
}

/** Signs in with GitHub through the real redirect flow, as a browser would. */
async function signInWithGithub(who: GithubAccount, options: { jar?: CookieJar; seen?: Response[] } = {}) {
  github.signInAs(who);
  const result = await signInThroughDevIdp({
    startUrl: `${stack.apiUrl}/api/auth/login?provider=github&returnTo=/after-sign-in`,
    email: 'unused@example.com',
    name: 'unused',
    stopAt: (location) => location.origin === stack.apiUrl && !location.pathname.startsWith('/api/'),
    cookieJar: options.jar,
    fetch: options.seen ? recordingFetch(stack.apiUrl, options.seen) : undefined,
  });
  return { jar: result.cookieJar, landedOn: result.stoppedAt, response: result.response };
}

async function profileOf(jar: CookieJar) {
  const response = await browser(stack.apiUrl, jar).fetch('/api/auth/me');
  expect(response.status).toBe(200);
  return (await response.json()) as { id: string; displayName: string };
}

const usersWithEmail = (email: string) =>
  stack.platform.db.sql<{ id: string; provider: string; provider_subject: string; display_name: string }[]>`
    select id, provider, provider_subject, display_name from users where email_hash = ${emailHash(email)}`;
const identitiesOf = (userId: string) =>
  stack.platform.db.sql<{ provider: string; provider_subject: string }[]>`
    select provider, provider_subject from user_identities where user_id = ${userId}`;

describe('signing in with GitHub', () => {
  it('creates one user named as on GitHub, from the verified primary email, asking for the two scopes with PKCE', async () => {
    const email = uniqueEmail('margaret');
    const who = account(email, 'Margaret Hamilton');
    const { jar, landedOn } = await signInWithGithub(who);
    expect(landedOn?.pathname).toBe('/after-sign-in');
    expect(jar.get(stack.apiUrl, SESSION_COOKIE)).toBeTruthy();
    const profile = await profileOf(jar);
    expect(profile.displayName).toBe('Margaret Hamilton');

    const authorize = github.authorizeRequests.at(-1)!;
    expect(authorize.searchParams.get('scope')).toBe('read:user user:email');
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${stack.apiUrl}/api/auth/callback`);

    // Again: the same account, still one row, no second identity.
    const again = await signInWithGithub(who);
    expect((await profileOf(again.jar)).id).toBe(profile.id);
    const rows = await usersWithEmail(email);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: profile.id, provider: github.url, provider_subject: String(who.id) });
    expect(await identitiesOf(profile.id)).toHaveLength(0);
  });

  it('gives the neutral name when the GitHub account has none', async () => {
    const { jar } = await signInWithGithub(account(uniqueEmail('nameless'), null));
    expect((await profileOf(jar)).displayName).toBe('Renamer user');
  });

  it('joins a GitHub sign-in to the OIDC account of the same verified email: one users row, one identity', async () => {
    const email = uniqueEmail('grace');
    const oidc = await profileOf((await stack.signIn(email, 'Grace Hopper')).jar);
    const who = account(email.toUpperCase(), 'Grace B. Hopper');
    const viaGithub = await profileOf((await signInWithGithub(who)).jar);
    expect(viaGithub.id).toBe(oidc.id);
    expect(viaGithub.displayName).toBe('Grace Hopper');
    expect(await usersWithEmail(email)).toHaveLength(1);
    expect(await identitiesOf(oidc.id)).toEqual([{ provider: github.url, provider_subject: String(who.id) }]);

    // Both ways keep leading to the one account.
    expect((await profileOf((await signInWithGithub(who)).jar)).id).toBe(oidc.id);
    expect((await profileOf((await stack.signIn(email, 'Grace Hopper')).jar)).id).toBe(oidc.id);
    expect(await identitiesOf(oidc.id)).toHaveLength(1);
  });

  it('joins an OIDC sign-in to the account GitHub made first', async () => {
    const email = uniqueEmail('katherine');
    const viaGithub = await profileOf((await signInWithGithub(account(email, 'Katherine Johnson'))).jar);
    const oidc = await profileOf((await stack.signIn(email, 'K. Johnson')).jar);
    expect(oidc.id).toBe(viaGithub.id);
    expect(await usersWithEmail(email)).toHaveLength(1);
    expect((await identitiesOf(viaGithub.id)).map((row) => row.provider)).toEqual([stack.issuer.replace(/\/$/, '')]);
  });

  it.each([
    ['whose primary email is not verified', (email: string) => account(email, 'Unverified', false)],
    ['with no email at all', (email: string) => ({ ...account(email, 'No Email'), emails: [] })],
  ])('refuses an account %s, clearly, and creates nobody', async (_case, make) => {
    const email = uniqueEmail('unverified');
    const { landedOn, response } = await signInWithGithub(make(email));
    expect(landedOn).toBeUndefined();
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    const problem = (await response.json()) as { code: string; detail: string };
    expect(problem.code).toBe('unauthenticated');
    expect(problem.detail).toContain('no verified primary email address');
    expect(await usersWithEmail(email)).toHaveLength(0);
  });

  it('refuses a callback whose state is not the one this browser was given', async () => {
    github.signInAs(account(uniqueEmail('forged'), 'Forged'));
    const client = browser(stack.apiUrl);
    const login = await client.fetch('/api/auth/login?provider=github');
    expect(login.status).toBe(302);
    const authorize = await fetch(login.headers.get('location')!, { redirect: 'manual' });
    const callback = new URL(authorize.headers.get('location')!);
    callback.searchParams.set('state', 'forged');
    const response = await client.fetch(callback.pathname + callback.search);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'unauthenticated' });
    expect(client.jar.get(stack.apiUrl, SESSION_COOKIE)).toBeUndefined();
  });
});

describe('the providers a server offers', () => {
  it('lists GitHub only when it is configured', async () => {
    const withGithub = await fetch(`${stack.apiUrl}/api/auth/providers`);
    expect(withGithub.status).toBe(200);
    expect(await withGithub.json()).toEqual({ providers: ['oidc', 'github'] });
    const without = await fetch(`${plain.apiUrl}/api/auth/providers`);
    expect(await without.json()).toEqual({ providers: ['oidc'] });
  });

  it('refuses GitHub sign-in where it is not configured, with a problem saying so', async () => {
    const response = await fetch(`${plain.apiUrl}/api/auth/login?provider=github`, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(await response.json()).toMatchObject({
      code: 'validation_failed',
      detail: expect.stringContaining('GitHub'),
    });
  });

  it('refuses a provider it does not know', async () => {
    const response = await fetch(`${stack.apiUrl}/api/auth/login?provider=gitlab`, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'validation_failed' });
  });
});

describe('the cookies the API sets', () => {
  interface SetCookie {
    name: string;
    attributes: Map<string, string>;
  }
  const parse = (header: string): SetCookie => {
    const [pair = '', ...rest] = header.split(';');
    const attributes = new Map(
      rest.map((part) => {
        const [key = '', value = ''] = part.split('=', 2).map((piece) => piece.trim());
        return [key.toLowerCase(), value] as const;
      }),
    );
    return { name: pair.slice(0, pair.indexOf('=')).trim(), attributes };
  };

  /** Every Set-Cookie of a GitHub sign-in, an OIDC sign-in, a CSRF token and a sign-out on `target`. */
  async function everyCookie(target: AuthStack, withGithub: boolean) {
    const seen: Response[] = [];
    if (withGithub) await signInWithGithub(account(uniqueEmail('cookies'), 'Cookie Monster'), { seen });
    const oidc = await signInThroughDevIdp({
      startUrl: `${target.apiUrl}/api/auth/login?provider=oidc`,
      email: uniqueEmail('cookies'),
      name: 'Cookie Monster',
      stopAt: (location) => location.origin === target.apiUrl && !location.pathname.startsWith('/api/'),
      fetch: recordingFetch(target.apiUrl, seen),
    });
    const client = browser(target.apiUrl, oidc.cookieJar);
    const csrf = await client.fetch('/api/auth/csrf');
    seen.push(csrf);
    seen.push(
      await client.fetch('/api/auth/logout', {
        method: 'POST',
        csrf: ((await csrf.json()) as { token: string }).token,
      }),
    );
    return seen.flatMap((response) => response.headers.getSetCookie()).map(parse);
  }

  it('sets every cookie HttpOnly, Secure, SameSite=Lax and Path=/ (session, CSRF, sign-in flow, OAuth state and verifier)', async () => {
    const cookies = await everyCookie(stack, true);
    expect(new Set(cookies.map((cookie) => cookie.name))).toEqual(
      new Set([SESSION_COOKIE, CSRF_COOKIE, 'sign_in_flow', 'oauth2-redirect-state', 'oauth2-code-verifier']),
    );
    for (const cookie of cookies) {
      expect({ name: cookie.name, httpOnly: cookie.attributes.has('httponly') }).toEqual({
        name: cookie.name,
        httpOnly: true,
      });
      expect({ name: cookie.name, secure: cookie.attributes.has('secure') }).toEqual({
        name: cookie.name,
        secure: true,
      });
      expect({ name: cookie.name, sameSite: cookie.attributes.get('samesite') }).toEqual({
        name: cookie.name,
        sameSite: 'Lax',
      });
      expect({ name: cookie.name, path: cookie.attributes.get('path') }).toEqual({ name: cookie.name, path: '/' });
    }
  });

  it('leaves Secure off in development (plain http on localhost), the rest the same', async () => {
    const cookies = await everyCookie(plain, false);
    expect(new Set(cookies.map((cookie) => cookie.name))).toEqual(
      new Set([SESSION_COOKIE, CSRF_COOKIE, 'sign_in_flow']),
    );
    for (const cookie of cookies) {
      expect({ name: cookie.name, secure: cookie.attributes.has('secure') }).toEqual({
        name: cookie.name,
        secure: false,
      });
      expect(cookie.attributes.has('httponly')).toBe(true);
      expect(cookie.attributes.get('samesite')).toBe('Lax');
      expect(cookie.attributes.get('path')).toBe('/');
    }
  });
});
