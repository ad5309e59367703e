import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiStack, getJson, type Json, startApiStack, upload } from './support/api-stack';
import { photo } from './support/images';

let stack: ApiStack;
let api: { url: string };

beforeAll(async () => {
  stack = await startApiStack('keywords');
  api = await stack.startApi();
}, 60_000);

afterAll(async () => {
  await stack?.close();
});

type User = Awaited<ReturnType<ApiStack['createUser']>>;

const post = (user: User, path: string, body: unknown) =>
  getJson(`${api.url}/api/keywords/${path}`, user.key, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });

describe('POST /api/keywords/enhance', () => {
  it('answers long-tail phrases, related terms and categories from the local word lists', async () => {
    const user = await stack.createUser();
    const { status, body } = await post(user, 'enhance', {
      keywords: ['  Handmade   Ceramic MUG ', 'the red roses', 'handmade ceramic mug', 'Lisbon tram'],
      context: 'blue mugs for a coffee shop',
    });
    expect(status).toBe(200);
    expect(body!.provider).toBe('local');
    // Normalised, stop words at either end dropped ("mug" is in stopwords-iso's English list, and stays), once each.
    expect(body!.keywords).toEqual(['handmade ceramic mug', 'red roses', 'lisbon tram']);
    // The colour the context names comes first; every phrase keeps the keyword's words.
    expect(body!.longTail[0]).toBe('handmade blue ceramic mug');
    expect(body!.longTail).toEqual(expect.arrayContaining(['handmade ceramic coffee mug', 'vintage lisbon tram']));
    for (const phrase of body!.longTail) expect(phrase).toMatch(/mug|roses|tram/);
    expect(body!.related).toEqual(expect.arrayContaining(['coffee cup', 'bouquet', 'streetcar']));
    expect(body!.related).not.toContain('roses');
    expect(body!.categories).toEqual([
      { category: 'kitchen and dining', keywords: ['handmade ceramic mug'] },
      { category: 'plants and flowers', keywords: ['red roses'] },
      { category: 'vehicles', keywords: ['lisbon tram'] },
    ]);
  });

  it('is deterministic', async () => {
    const user = await stack.createUser();
    const ask = () => post(user, 'enhance', { keywords: ['wooden chair', 'sunset'] });
    const [first, second] = [await ask(), await ask()];
    expect(second.body).toEqual(first.body);
  });

  it('says what it knows and nothing more for a language the lists do not cover', async () => {
    const user = await stack.createUser();
    const { status, body } = await post(user, 'enhance', {
      keywords: ['die Keramiktasse', 'rote Rosen'],
      locale: 'de',
    });
    expect(status).toBe(200);
    expect(body).toEqual({
      keywords: ['keramiktasse', 'rote rosen'],
      longTail: [],
      related: [],
      categories: [],
      provider: 'local',
    });
  });

  it.each([
    ['too short', 'a', 'shorter than 2 characters'],
    ['too long', 'x'.repeat(61), 'longer than 60 characters'],
    ['a tag', '<b>mug</b>', 'markup'],
    ['a closing bracket', 'mug > cup', 'markup'],
    ['an HTML entity', 'mugs &amp; cups', 'markup'],
    ['a numeric entity', 'mug &#60;', 'markup'],
    ['a script URL', 'javascript:alert(1)', 'markup'],
    ['a control character', 'mug\u0000', 'control characters'],
    ['a line break', 'mug\ncup', 'control characters'],
    ['a bidirectional control', 'mug\u202egpj', 'control characters'],
    ['a right-to-left mark', 'mug\u200f', 'control characters'],
  ])('refuses a keyword with %s as invalid_keywords, naming it', async (_, keyword, why) => {
    const user = await stack.createUser();
    const { status, body } = await post(user, 'enhance', { keywords: ['ceramic mug', keyword] });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'invalid_keywords', status: 400 });
    expect(body!.errors).toEqual([
      { path: 'body.keywords.1', message: expect.stringContaining(why), code: 'invalid_keywords' },
    ]);
    expect(body!.errors[0].message).toContain(JSON.stringify(keyword));
  });

  it('names every bad keyword of a request, and refuses none or more than 20 as invalid_keywords', async () => {
    const user = await stack.createUser();
    const many = await post(user, 'enhance', { keywords: ['<i>', 'ok keyword', 'z'] });
    expect(many.body!.errors.map((error: Json) => error.path)).toEqual(['body.keywords.0', 'body.keywords.2']);

    const none = await post(user, 'enhance', { keywords: [] });
    expect(none.body).toMatchObject({ status: 400, code: 'invalid_keywords', errors: [{ path: 'body.keywords' }] });
    const tooMany = await post(user, 'enhance', { keywords: Array.from({ length: 21 }, (_, i) => `keyword ${i}`) });
    expect(tooMany.body).toMatchObject({ status: 400, code: 'invalid_keywords', errors: [{ path: 'body.keywords' }] });
  });

  it('keeps validation_failed for a body without a keyword list', async () => {
    const user = await stack.createUser();
    expect((await post(user, 'enhance', {})).body).toMatchObject({ status: 400, code: 'validation_failed' });
    expect((await post(user, 'enhance', { keywords: 'mug' })).body).toMatchObject({ code: 'validation_failed' });
    expect((await post(user, 'enhance', { keywords: ['mug'], locale: 'not a locale' })).body).toMatchObject({
      code: 'validation_failed',
    });
  });
});

describe('POST /api/keywords/validate', () => {
  it('judges each keyword, normalised, with its issues, and refuses none', async () => {
    const user = await stack.createUser();
    const { status, body } = await post(user, 'validate', {
      keywords: ['Red Shoes', 'red  shoes', '<script>', 'the', 'x'],
    });
    expect(status).toBe(200);
    expect(body!.results).toEqual([
      { keyword: 'Red Shoes', valid: true, normalized: 'red shoes', issues: [] },
      { keyword: 'red  shoes', valid: false, normalized: 'red shoes', issues: ['repeats an earlier keyword'] },
      { keyword: '<script>', valid: false, normalized: '<script>', issues: [expect.stringContaining('markup')] },
      { keyword: 'the', valid: false, normalized: '', issues: ['has no word left once stop words are left out'] },
      {
        keyword: 'x',
        valid: false,
        normalized: '',
        issues: ['is shorter than 2 characters', 'has no word left once stop words are left out'],
      },
    ]);
  });
});

describe('POST /api/keywords/suggest', () => {
  it('suggests from an image’s tags and its batch’s keywords and context, never from camera or date tags', async () => {
    const owner = await stack.createUser();
    const uploaded = await upload(
      api.url,
      owner.key,
      [{ name: 'a.jpg', bytes: await photo('jpeg', 1), type: 'image/jpeg' }],
      {
        keywords: 'stoneware',
        context: 'Handmade ceramic mugs for a coffee shop in Porto',
      },
    );
    expect(uploaded.status).toBe(201);
    const imageId = uploaded.body.accepted[0].imageId as string;
    await stack.repositories.images.update(imageId, {
      visionTags: [
        { label: 'sky', confidence: 0.6, source: 'scene' },
        { label: 'coffee cup', confidence: 0.9, source: 'objects' },
        { label: 'canon eos r5', confidence: 1, source: 'camera' },
        { label: '2024 june', confidence: 1, source: 'date' },
      ],
    });

    const { status, body } = await post(owner, 'suggest', { imageId });
    expect(status).toBe(200);
    expect(body!.suggestions).toEqual([
      'stoneware',
      'coffee cup',
      'sky',
      'handmade ceramic mugs',
      'mug',
      'coffee shop',
      'porto',
    ]);

    const stranger = await stack.createUser();
    expect((await post(stranger, 'suggest', { imageId })).body).toMatchObject({ status: 404, code: 'not_found' });
    const unknown = await post(owner, 'suggest', { imageId: crypto.randomUUID() });
    expect(unknown.body).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('suggests from free text, and refuses a body with neither or both', async () => {
    const user = await stack.createUser();
    const { body } = await post(user, 'suggest', { text: 'Vintage wooden chairs by the window in Lisbon.' });
    expect(body).toEqual({ suggestions: ['vintage wooden chairs', 'chair', 'window', 'lisbon'] });
    expect((await post(user, 'suggest', {})).body).toMatchObject({ code: 'validation_failed' });
    const both = await post(user, 'suggest', { imageId: crypto.randomUUID(), text: 'mugs' });
    expect(both.body).toMatchObject({ code: 'validation_failed' });
  });
});

describe('credentials and limits', () => {
  it('refuses a caller without credentials before looking at the body', async () => {
    for (const path of ['enhance', 'suggest', 'validate']) {
      const response = await fetch(`${api.url}/api/keywords/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ keywords: ['<b>'] }),
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: 'unauthenticated' });
    }
  });

  it('answers the 31st keyword request of a user in a minute with 429 and Retry-After, across the three routes', async () => {
    const user = await stack.createUser();
    const other = await stack.createUser();
    const paths = ['enhance', 'suggest', 'validate'];
    const bodies: Record<string, unknown> = {
      enhance: { keywords: ['mug'] },
      suggest: { text: 'a mug' },
      validate: { keywords: ['mug'] },
    };
    for (let i = 0; i < 30; i++) {
      const path = paths[i % 3]!;
      expect((await post(user, path, bodies[path])).status, `request ${i + 1}`).toBe(200);
    }
    const response = await fetch(`${api.url}/api/keywords/validate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(bodies.validate),
    });
    expect(response.status).toBe(429);
    expect(await response.json()).toMatchObject({ code: 'rate_limited' });
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Another user has a counter of their own, and the user's other routes are not limited by it.
    expect((await post(other, 'validate', bodies.validate)).status).toBe(200);
    expect((await getJson(`${api.url}/api/auth/me`, user.key)).status).toBe(200);
  });
});
