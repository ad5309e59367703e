import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevIdp, type DevIdp } from '../src';
import { CookieJar } from '../src/testing';
import { authorizationRequest, discover } from './oidc-client';

const client = { clientId: 'page-client', clientSecret: 'page-secret', redirectUri: 'http://localhost:1/callback' };
let idp: DevIdp;

beforeAll(async () => {
  idp = createDevIdp({
    issuer: 'http://localhost',
    port: 0,
    clients: [{ clientId: client.clientId, clientSecret: client.clientSecret, redirectUris: [client.redirectUri] }],
  });
  await idp.listen();
});

afterAll(async () => {
  await idp.close();
});

async function openSignInPage(): Promise<{ formUrl: URL; html: string; cookieJar: CookieJar }> {
  const cookieJar = new CookieJar();
  const { url } = authorizationRequest(await discover(idp.issuer), client);
  const redirect = await fetch(url, { redirect: 'manual' });
  cookieJar.storeFrom(url, redirect);
  const formUrl = new URL(redirect.headers.get('location')!, url);
  const page = await fetch(formUrl, { headers: { cookie: cookieJar.headerFor(formUrl)! } });
  expect(page.status).toBe(200);
  return { formUrl, html: await page.text(), cookieJar };
}

async function postForm(formUrl: URL, cookieJar: CookieJar, fields: Record<string, string>): Promise<Response> {
  return fetch(formUrl, {
    method: 'POST',
    headers: { cookie: cookieJar.headerFor(formUrl)! },
    body: new URLSearchParams(fields),
    redirect: 'manual',
  });
}

describe('dev-idp sign-in page', () => {
  it('is a plain form asking only for an email and a display name, posting to itself', async () => {
    const { formUrl, html } = await openSignInPage();
    expect(html).toContain(`<form method="post" action="${formUrl.pathname}">`);
    expect([...html.matchAll(/<input\b[^>]*\bname="([^"]+)"/g)].map((match) => match[1])).toEqual(['email', 'name']);
    expect(html).not.toContain('<script');
  });

  it('re-renders the form with an error and the escaped input on a bad email', async () => {
    const { formUrl, cookieJar } = await openSignInPage();
    const response = await postForm(formUrl, cookieJar, { email: '"><script>alert(1)</script>', name: '<b>Ada</b>' });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('Enter a valid email address.');
    expect(html).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(html).toContain('value="&lt;b&gt;Ada&lt;/b&gt;"');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>Ada');
  });

  it('requires a display name', async () => {
    const { formUrl, cookieJar } = await openSignInPage();
    const response = await postForm(formUrl, cookieJar, { email: 'ada@example.com', name: '   ' });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('Enter a display name');
  });

  it('finishes the interaction with a redirect once the input is valid', async () => {
    const { formUrl, cookieJar } = await openSignInPage();
    const response = await postForm(formUrl, cookieJar, { email: 'ada@example.com', name: 'Ada' });
    expect(response.status).toBe(303);
    expect(new URL(response.headers.get('location')!).origin).toBe(idp.issuer);
  });

  it('answers 400 to a form post without an interaction cookie', async () => {
    const { formUrl } = await openSignInPage();
    const response = await fetch(formUrl, {
      method: 'POST',
      body: new URLSearchParams({ email: 'a@b.co', name: 'A' }),
    });
    expect(response.status).toBe(400);
  });
});
