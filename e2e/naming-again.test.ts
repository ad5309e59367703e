import { connectWs, getJson, type Json, photo, upload, waitForBatch } from '@renamer/api/testing';
import type { ServerMessage } from '@renamer/contracts';
import { type FakeOpenAiServer, startFakeOpenAiServer } from '@renamer/llm/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PipelineStack, startPipelineStack } from './support/pipeline-stack';

let stack: PipelineStack;
let api: { url: string };
let model: FakeOpenAiServer;

const INSTRUCTIONS = 'Mention the glaze colour, in British English.';
const answer = (words: string[]) =>
  JSON.stringify({ titleWords: words, tags: [], altText: `A ${words.join(' ')} on a shelf.` });

beforeAll(async () => {
  model = await startFakeOpenAiServer();
  // Every image gets the same three words from the model, so each name says which image it is by its {seq}.
  model.reply({ content: answer(['glazed', 'ceramic', 'mug']) });
  stack = await startPipelineStack('naming-again');
  api = await stack.startApi();
  await stack.startWorker({
    ANALYSIS_STEPS: 'pixels,llm',
    LLM_BASE_URL: model.url,
    LLM_MODEL: 'naming-again-model',
    LLM_MAX_RETRIES: '0',
    LLM_TIMEOUT_MS: '5000',
  });
}, 60_000);

afterAll(async () => {
  await stack?.close();
  await model?.close();
});

async function send(method: string, path: string, key: string, body?: unknown) {
  return getJson(`${api.url}${path}`, key, {
    method,
    ...(body !== undefined && { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
}

const ofType = <T extends ServerMessage['type']>(messages: ServerMessage[], type: T) =>
  messages.filter((message): message is Extract<ServerMessage, { type: T }> => message.type === type);

describe('a batch named with a template and instructions, renamed by a person, then named again', () => {
  it("keeps the person's name, gives the others the new template, and says so in history and live events", async () => {
    const owner = await stack.createUser();
    const files = await Promise.all(
      [1, 2, 3].map(async (seed) => ({
        name: `IMG_77${seed}.JPG`,
        bytes: await photo('jpeg', seed),
        type: 'image/jpeg',
      })),
    );
    const uploaded = await upload(api.url, owner.key, files, {
      template: 'acme-{subject}-{seq:3}',
      instructions: INSTRUCTIONS,
    });
    expect(uploaded.status).toBe(201);
    const batchId: string = uploaded.body.batchId;
    const ids: string[] = uploaded.body.accepted.map((file: Json) => file.imageId);

    // While the batch is still analysed, nothing can be named again.
    const early = await send('POST', `/api/batch/${batchId}/propose`, owner.key, {});
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ code: 'conflict' });

    const done = await waitForBatch(api.url, owner.key, batchId, (batch) => batch.status === 'completed', 60_000);
    expect(done).toMatchObject({ template: 'acme-{subject}-{seq:3}', instructions: INSTRUCTIONS });
    for (const request of model.requests) expect(JSON.stringify(request.messages)).toContain('glaze colour');
    expect(model.requests.length).toBeGreaterThanOrEqual(3);

    const nameOf = async (id: string) => (await send('GET', `/api/image/${id}`, owner.key)).body!;
    const first = await Promise.all(ids.map(nameOf));
    first.forEach((image, index) => {
      expect(image.filename).toBe(`acme-glazed-ceramic-mug-00${index + 1}.jpg`);
    });

    // A person renames the second image; the batch's template changes.
    expect(
      (await send('PUT', `/api/image/${ids[1]}/filename`, owner.key, { filename: 'favourite-blue-mug' })).status,
    ).toBe(200);
    const refused = await send('PATCH', `/api/batch/${batchId}`, owner.key, { template: '{subject}-{colour}' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'invalid_template', detail: expect.stringContaining('{colour}') });
    const patched = await send('PATCH', `/api/batch/${batchId}`, owner.key, { template: 'studio-{subject}-{seq:2}' });
    expect(patched.body).toMatchObject({ template: 'studio-{subject}-{seq:2}' });

    const check = await send('POST', '/api/image/filename-check', owner.key, {
      template: 'studio-{subject}-{seq:2}',
      imageId: ids[2],
    });
    expect(check.body).toMatchObject({ filename: 'studio-glazed-ceramic-mug-03.jpg', valid: true });

    // The preview names the changes and makes none.
    const preview = await send('POST', `/api/batch/${batchId}/propose?dryRun=true`, owner.key, {});
    expect(preview.status).toBe(200);
    expect(preview.body!.changes).toEqual([
      { imageId: ids[0], from: 'acme-glazed-ceramic-mug-001.jpg', to: 'studio-glazed-ceramic-mug-01.jpg' },
      { imageId: ids[2], from: 'acme-glazed-ceramic-mug-003.jpg', to: 'studio-glazed-ceramic-mug-03.jpg' },
    ]);
    expect((await nameOf(ids[0]!)).filename).toBe('acme-glazed-ceramic-mug-001.jpg');
    const quotaBefore = (await send('GET', '/api/auth/quota', owner.key)).body!.used;
    const calls = model.requests.length;

    const ws = await connectWs(api.url, owner.headers);
    ws.send({ type: 'subscribe', batchId });
    await ws.waitFor((all) => all.some((message) => message.type === 'subscribed'));
    const proposed = await send('POST', `/api/batch/${batchId}/propose`, owner.key, {});
    expect(proposed.status).toBe(202);
    expect(proposed.body).toMatchObject({ batchId, status: 'processing' });
    const messages = await ws.waitFor((all) =>
      ofType(all, 'batch.status').some((event) => event.status === 'completed'),
    );
    ws.close();

    expect(ofType(messages, 'batch.status').map((event) => event.status)).toEqual(['processing', 'completed']);
    expect(
      ofType(messages, 'image.status')
        .map((event) => [event.imageId, event.proposedFilename])
        .sort(),
    ).toEqual(
      [
        [ids[0], 'studio-glazed-ceramic-mug-01.jpg'],
        [ids[2], 'studio-glazed-ceramic-mug-03.jpg'],
      ].sort(),
    );
    const after = await Promise.all(ids.map(nameOf));
    expect(after.map((image) => image.filename)).toEqual([
      'studio-glazed-ceramic-mug-01.jpg',
      'favourite-blue-mug.jpg',
      'studio-glazed-ceramic-mug-03.jpg',
    ]);
    expect(after[0]!.history[0]).toMatchObject({
      from: 'acme-glazed-ceramic-mug-001.jpg',
      to: 'studio-glazed-ceramic-mug-01.jpg',
      source: 'proposal',
      by: null,
    });
    // Named from the stored analysis: no call to the model, no quota.
    expect(model.requests.length).toBe(calls);
    expect((await send('GET', '/api/auth/quota', owner.key)).body!.used).toBe(quotaBefore);

    // With includeEdited, an approved name a person gave follows the template too, and goes back to ready.
    expect((await send('POST', `/api/image/${ids[1]}/approve`, owner.key)).status).toBe(200);
    const again = await send('POST', `/api/batch/${batchId}/propose`, owner.key, {
      imageIds: [ids[1]],
      includeEdited: true,
    });
    expect(again.status).toBe(202);
    await waitForBatch(api.url, owner.key, batchId, (batch) => batch.status === 'completed', 30_000);
    expect(await nameOf(ids[1]!)).toMatchObject({
      filename: 'studio-glazed-ceramic-mug-02.jpg',
      status: 'ready',
      approved: false,
    });
  }, 120_000);

  it('analyses the pixels again when the instructions changed, and only then', async () => {
    const owner = await stack.createUser();
    const files = [{ name: 'IMG_880.JPG', bytes: await photo('jpeg', 11), type: 'image/jpeg' }];
    const { body } = await upload(api.url, owner.key, files, { instructions: 'Name the glaze.' });
    await waitForBatch(api.url, owner.key, body.batchId, (batch) => batch.status === 'completed', 60_000);
    const imageId: string = body.accepted[0].imageId;
    expect((await send('GET', `/api/image/${imageId}`, owner.key)).body).toMatchObject({
      filename: 'glazed-ceramic-mug.jpg',
    });

    model.reply({ content: answer(['speckled', 'stoneware', 'cup']) });
    const calls = model.requests.length;
    await send('PATCH', `/api/batch/${body.batchId}`, owner.key, { instructions: 'Name the clay, not the glaze.' });
    expect((await send('POST', `/api/batch/${body.batchId}/propose`, owner.key, {})).status).toBe(202);
    await waitForBatch(api.url, owner.key, body.batchId, (batch) => batch.status === 'completed', 60_000);

    expect(model.requests.length).toBe(calls + 1);
    expect(JSON.stringify(model.requests.at(-1)!.messages)).toContain('Name the clay, not the glaze.');
    const image = (await send('GET', `/api/image/${imageId}`, owner.key)).body!;
    expect(image).toMatchObject({ filename: 'speckled-stoneware-cup.jpg', status: 'ready' });
    expect(image.history[0]).toMatchObject({ from: 'glazed-ceramic-mug.jpg', to: 'speckled-stoneware-cup.jpg' });
  }, 90_000);

  it("starts new batches from the account's template and instructions, and refuses another user's batch", async () => {
    const owner = await stack.createUser();
    const defaults = await send('PATCH', '/api/auth/me', owner.key, {
      template: 'shop-{subject}',
      instructions: 'Say the material.',
    });
    expect(defaults.body).toMatchObject({ template: 'shop-{subject}', instructions: 'Say the material.' });
    expect((await send('GET', '/api/auth/me', owner.key)).body).toMatchObject({ template: 'shop-{subject}' });
    const badDefault = await send('PATCH', '/api/auth/me', owner.key, { template: 'img-{seq}' });
    expect(badDefault.body).toMatchObject({ code: 'invalid_template' });

    const { body } = await upload(api.url, owner.key, [
      { name: 'IMG_1.JPG', bytes: await photo('jpeg', 9), type: 'image/jpeg' },
    ]);
    const status = await send('GET', `/api/batch/${body.batchId}/status`, owner.key);
    expect(status.body).toMatchObject({ template: 'shop-{subject}', instructions: 'Say the material.' });

    const stranger = await stack.createUser();
    const foreign = await send('POST', `/api/batch/${body.batchId}/propose?dryRun=true`, stranger.key, {});
    expect(foreign.status).toBe(404);
  });
});
