// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeApi, renderWithQueries, type SentRequest } from '../../test/render';
import { NamingPanel } from './naming-panel';

const BATCH = '6f1c2a52-52a4-4d5f-9f0e-1d2c3b4a5f60';
const imageId = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
const IMAGES = [1, 2, 3, 4].map((n) => ({
  id: imageId(n),
  originalFilename: `IMG_000${n}.JPG`,
  createdAt: `2026-11-27T10:00:0${n}.000Z`,
}));
const status = (fields: Record<string, unknown> = {}) => ({
  batchId: BATCH,
  name: null,
  status: 'completed',
  total: 4,
  processed: 4,
  progress: 1,
  counts: { queued: 0, processing: 0, ready: 4, approved: 0, failed: 0, cancelled: 0 },
  locale: 'en',
  keywords: [],
  context: null,
  template: null,
  instructions: null,
  createdAt: '2026-11-26T12:00:00.000Z',
  updatedAt: '2026-11-26T12:00:00.000Z',
  completedAt: '2026-11-26T12:01:00.000Z',
  ...fields,
});
/** What the server's filename check answers for a template: its literal text with the image's number. */
const checkAnswer = ({ body }: SentRequest) => {
  const { template, imageId: id } = body as { template: string; imageId: string };
  if (template.includes('{colour}')) {
    return {
      status: 400,
      json: { code: 'invalid_template', detail: 'Unknown token {colour}: use {subject}, {keywords}, {place}…' },
    };
  }
  const name = `${template.replace('{subject}', 'red-shoes').replace(/\{seq(:\d)?\}/, `00${id.at(-1)}`)}.jpg`;
  return { json: { filename: name, valid: true, errors: [], seo: null } };
};

afterEach(cleanup);

describe('how a batch is named, on its review page', () => {
  it('previews the names a template gives the first three images as it is typed, and says why a template is refused', async () => {
    const { sent } = fakeApi({
      [`GET /api/batch/${BATCH}/status`]: { json: status() },
      'POST /api/image/filename-check': checkAnswer,
    });
    renderWithQueries(<NamingPanel batchId={BATCH} images={IMAGES} marked={[]} onNamedAgain={() => undefined} />);
    const user = userEvent.setup();
    const field = await screen.findByLabelText('Naming template');
    await user.type(field, 'acme-{{subject}-{{seq:3}');

    const preview = await screen.findByRole('list', { name: 'Names the template would give' });
    await waitFor(() =>
      expect(
        within(preview)
          .getAllByTestId('template-preview-name')
          .map((name) => name.textContent),
      ).toEqual(['acme-red-shoes-001.jpg', 'acme-red-shoes-002.jpg', 'acme-red-shoes-003.jpg']),
    );
    const checks = sent.filter((request) => request.url.pathname === '/api/image/filename-check');
    // Debounced: the typing asked once for the finished template, not once per key.
    expect(checks.filter((request) => (request.body as { template: string }).template.startsWith('acme-'))).toEqual(
      IMAGES.slice(0, 3).map((image) =>
        expect.objectContaining({ body: { template: 'acme-{subject}-{seq:3}', imageId: image.id } }),
      ),
    );

    await user.clear(field);
    await user.type(field, '{{colour}-shoes');
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Unknown token \{colour\}.* Change the template/);
  });

  it('saves the template and instructions, and clears them with empty fields', async () => {
    const { sent } = fakeApi({
      [`GET /api/batch/${BATCH}/status`]: {
        json: status({ template: 'old-{subject}', instructions: 'British English' }),
      },
      [`PATCH /api/batch/${BATCH}`]: ({ body }) => ({ json: status(body as Record<string, unknown>) }),
      'POST /api/image/filename-check': checkAnswer,
    });
    renderWithQueries(<NamingPanel batchId={BATCH} images={IMAGES} marked={[]} onNamedAgain={() => undefined} />);
    const user = userEvent.setup();
    const template = await screen.findByLabelText('Naming template');
    expect((template as HTMLInputElement).value).toBe('old-{subject}');
    await user.clear(template);
    await user.type(template, 'acme-{{subject}');
    await user.clear(screen.getByLabelText('Instructions for the vision model'));
    await user.click(screen.getByRole('button', { name: 'Save template and instructions' }));
    await screen.findByText('Saved: “Name again” uses them.');
    expect(sent.find((request) => request.method === 'PATCH')?.body).toEqual({
      template: 'acme-{subject}',
      instructions: null,
    });
  });

  it('shows what naming again would change before it changes anything, then applies exactly that and says the batch is at work', async () => {
    let named = false;
    const { sent } = fakeApi({
      [`GET /api/batch/${BATCH}/status`]: { json: status() },
      'POST /api/image/filename-check': checkAnswer,
      [`POST /api/batch/${BATCH}/propose`]: ({ url }) => {
        if (url.searchParams.get('dryRun') === 'true') {
          return {
            json: { changes: [{ imageId: imageId(2), from: 'blue-sky-clouds.jpg', to: 'acme-red-shoes-002.jpg' }] },
          };
        }
        named = true;
        return { status: 202, json: status({ status: 'processing' }) };
      },
    });
    renderWithQueries(
      <NamingPanel batchId={BATCH} images={IMAGES} marked={[imageId(2), imageId(3)]} onNamedAgain={() => undefined} />,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Also the images a person renamed or approved'));
    await user.click(screen.getByRole('button', { name: 'Name the 2 selected images again…' }));

    const changes = await screen.findByRole('list', { name: 'Name changes' });
    expect(changes.textContent).toContain('IMG_0002.JPG');
    expect(changes.textContent).toContain('blue-sky-clouds.jpg → acme-red-shoes-002.jpg');
    expect(named).toBe(false);
    const dryRun = sent.find((request) => request.url.pathname.endsWith('/propose'))!;
    expect(dryRun.body).toEqual({ imageIds: [imageId(2), imageId(3)], includeEdited: true });

    await user.click(screen.getByRole('button', { name: 'Apply 1 change' }));
    expect((await screen.findByTestId('naming-status')).textContent).toBe('Proposing names again…');
    const applied = sent.filter((request) => request.url.pathname.endsWith('/propose')).at(-1)!;
    expect(applied.url.search).toBe('');
    expect(applied.body).toEqual({ imageIds: [imageId(2), imageId(3)], includeEdited: true });
    expect(screen.queryByRole('list', { name: 'Name changes' })).toBeNull();
    // While the batch is at work, nothing else can be named again.
    expect((screen.getByRole('button', { name: 'Name the whole batch again…' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it('says so when naming again would change nothing, and offers nothing to apply', async () => {
    fakeApi({
      [`GET /api/batch/${BATCH}/status`]: { json: status() },
      'POST /api/image/filename-check': checkAnswer,
      [`POST /api/batch/${BATCH}/propose`]: { json: { changes: [] } },
    });
    renderWithQueries(<NamingPanel batchId={BATCH} images={IMAGES} marked={[]} onNamedAgain={() => undefined} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Name the whole batch again…' }));
    await screen.findByText('No name would change.');
    expect(screen.queryByRole('button', { name: /^Apply/ })).toBeNull();
  });

  it('takes the keyboard to the changes, drops them once what they were asked with changes, and waits for saved edits', async () => {
    fakeApi({
      [`GET /api/batch/${BATCH}/status`]: { json: status() },
      'POST /api/image/filename-check': checkAnswer,
      [`POST /api/batch/${BATCH}/propose`]: {
        json: { changes: [{ imageId: imageId(1), from: 'blue-sky-clouds.jpg', to: 'red-shoes.jpg' }] },
      },
    });
    renderWithQueries(<NamingPanel batchId={BATCH} images={IMAGES} marked={[]} onNamedAgain={() => undefined} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Name the whole batch again…' }));
    await waitFor(() => expect(document.activeElement?.textContent).toBe('1 name would change:'));

    await user.click(screen.getByLabelText('Also the images a person renamed or approved'));
    expect(screen.queryByRole('list', { name: 'Name changes' })).toBeNull();
    await user.type(screen.getByLabelText('Naming template'), 'shop-{{subject}');
    // Naming again uses what is saved: with the edits unsaved it waits.
    expect((screen.getByRole('button', { name: 'Name the whole batch again…' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it('offers nothing for a cancelled batch but says to retry it first', async () => {
    fakeApi({
      [`GET /api/batch/${BATCH}/status`]: { json: status({ status: 'cancelled' }) },
      'POST /api/image/filename-check': checkAnswer,
    });
    renderWithQueries(<NamingPanel batchId={BATCH} images={IMAGES} marked={[]} onNamedAgain={() => undefined} />);
    await screen.findByText(/The batch is cancelled: retry it/);
    expect((screen.getByRole('button', { name: 'Name the whole batch again…' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });
});
