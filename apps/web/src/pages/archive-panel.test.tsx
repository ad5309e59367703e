// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, renderWithQueries } from '../../test/render';
import { ArchivePanel } from './archive-panel';

const BATCH = '6f1c2a52-52a4-4d5f-9f0e-1d2c3b4a5f60';
const entry = (n: number, approved: boolean) => ({
  imageId: `00000000-0000-4000-8000-00000000000${n}`,
  originalFilename: `IMG_000${n}.JPG`,
  filename: `linen-dress-${n}.jpg`,
  status: approved ? 'approved' : 'ready',
  approved,
});
const ENTRIES = [entry(1, true), entry(2, false)];

afterEach(cleanup);

describe('the archive panel', () => {
  it('lists what the archive will hold for the options set, and downloads with exactly those options', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const { sent } = fakeApi({
      [`GET /api/batch/${BATCH}/preview`]: ({ url }) => ({
        json: {
          batchId: BATCH,
          entries: url.searchParams.get('approvedOnly') ? ENTRIES.filter((item) => item.approved) : ENTRIES,
        },
      }),
      [`POST /api/batch/${BATCH}/download`]: {
        json: {
          url: 'http://renamer.test/api/files/archive?token=t',
          expiresAt: '2026-11-26T13:00:00.000Z',
          entries: 1,
        },
      },
    });
    renderWithQueries(<ArchivePanel batchId={BATCH} />);
    const contents = await screen.findByRole('list', { name: 'Contents of the archive' });
    await waitFor(() => expect(contents.querySelectorAll('li')).toHaveLength(2));
    expect(screen.getByText('linen-dress-2.jpg')).toBeTruthy();

    const user = userEvent.setup();
    await user.click(screen.getByLabelText('Approved images only'));
    await waitFor(() => expect(contents.querySelectorAll('li')).toHaveLength(1));
    await user.click(screen.getByLabelText('Add the rename kit (manifest and redirect maps)'));
    await user.type(screen.getByLabelText(/Where the images are online today/), 'https://shop.example/img/');
    expect(contents.textContent).toContain('renamer/manifest.csv');
    expect(contents.textContent).toContain('renamer/image-sitemap.xml');

    await user.click(screen.getByRole('button', { name: 'Download ZIP' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://renamer.test/api/files/archive?token=t'));
    const download = sent.find((request) => request.method === 'POST')!;
    expect(Object.fromEntries(download.url.searchParams)).toEqual({
      approvedOnly: 'true',
      manifest: 'true',
      baseUrl: 'https://shop.example/img/',
    });
  });

  it('asks for stripped, resized and converted copies and lists them under the new extension', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const { sent } = fakeApi({
      [`GET /api/batch/${BATCH}/preview`]: { json: { batchId: BATCH, entries: ENTRIES } },
      [`POST /api/batch/${BATCH}/download`]: {
        json: { url: 'http://renamer.test/api/files/zip', expiresAt: '2026-11-26T13:00:00.000Z', entries: 2 },
      },
    });
    renderWithQueries(<ArchivePanel batchId={BATCH} />);
    const contents = await screen.findByRole('list', { name: 'Contents of the archive' });
    await waitFor(() => expect(contents.querySelectorAll('li')).toHaveLength(2));

    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Metadata in the copies'), 'location');
    await user.type(screen.getByLabelText(/Longest side in pixels/), '1600');
    await user.selectOptions(screen.getByLabelText('Format'), 'webp');
    await user.type(screen.getByLabelText(/Quality/), '75');
    expect(screen.getByText('linen-dress-1.webp')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Download ZIP' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://renamer.test/api/files/zip'));
    const download = sent.find((request) => request.method === 'POST')!;
    expect(Object.fromEntries(download.url.searchParams)).toEqual({
      strip: 'location',
      resize: '1600',
      format: 'webp',
      quality: '75',
    });
  });

  it('offers no download while nothing would go in, and says why', async () => {
    fakeApi({ [`GET /api/batch/${BATCH}/preview`]: { json: { batchId: BATCH, entries: [] } } });
    renderWithQueries(<ArchivePanel batchId={BATCH} />);
    await screen.findByText(/none is named yet/);
    expect((screen.getByRole('button', { name: 'Download ZIP' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
