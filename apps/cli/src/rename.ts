import { readFile, rename as renameFile, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import {
  BatchCheckResponse,
  BatchList,
  ImageList,
  type ImageView,
  QuotaResponse,
  type StripMode,
} from '@renamer/contracts';
import { z } from 'zod';
import { type ApiClient, ApiError } from './client';
import { type Delivery, deliver } from './deliver';
import { CliError, EXIT } from './errors';
import { findImages, type LocalImage, sha256 } from './files';
import { createReporter, watchBatches } from './progress';
import type { RenamedFile, RenameResult } from './rename-result';
import { FILES_PER_REQUEST, type UploadFields, uploadRequest } from './upload';

const CHECK_CHUNK = 1000;
const PAGE = 100;
const STATE_FILE = '.renamer-state.json';

export interface RenameOptions extends UploadFields {
  recursive?: boolean;
  approve?: boolean;
  embed?: boolean;
  /** `location` or `all`: the delivered copies lose that metadata (the server's copies). */
  strip?: StripMode;
  out?: string;
  inPlace?: boolean;
  copyTo?: string;
  dryRun?: boolean;
  json?: boolean;
}

/** The batches a run started, kept beside the files until it ends, so that a run cut short is picked up. */
const RunState = z.object({ server: z.string(), batches: z.array(z.uuid()) });

/** What happened to the files that were not renamed, by checksum. */
type Setback = { outcome: RenamedFile['outcome']; problem: { code: string; detail: string } };

/**
 * `renamer rename`: find the images, hash them, skip what the account already holds (delivered under its current
 * name all the same; with `--duplicates allow` uploaded again as new images), upload the rest within the remaining
 * quota, follow the batches to the end, approve on
 * request, then deliver the files (ZIP, copies or renamed in place) and report every file's fate.
 */
export async function rename(client: ApiClient, paths: string[], options: RenameOptions): Promise<RenameResult> {
  const modes = [options.out, options.inPlace, options.copyTo].filter(Boolean).length;
  if (modes > 1) throw new CliError('choose one of --out, --in-place and --copy-to', EXIT.usage);
  if (options.inPlace && options.embed) {
    throw new CliError('--embed rewrites the files: use it with --out or --copy-to, not --in-place', EXIT.usage);
  }
  if (options.inPlace && options.strip && options.strip !== 'none') {
    throw new CliError('--strip rewrites the files: use it with --out or --copy-to, not --in-place', EXIT.usage);
  }
  const reporter = createReporter(false);
  try {
    const found = await findImages(paths, options.recursive ?? false);
    if (found.length === 0) throw new CliError(`no images in ${paths.join(', ')}`, EXIT.failure);
    reporter.line(`hashing ${found.length} ${found.length === 1 ? 'image' : 'images'}…`);
    const images: LocalImage[] = [];
    for (const file of found) images.push({ ...file, checksum: await sha256(file.path) });

    const home = runFolder(paths);
    const statePath = join(home, STATE_FILE);
    const state = await readState(statePath, client.connection.server);
    const again = options.duplicates === 'allow';
    const existing = await checkExisting(client, images);
    // With `allow`, what the run being picked up already uploaded again stands: its batches' images, not new ones.
    const resumed = again ? await imagesOfBatches(client, state.batches) : new Map<string, string>();
    const fresh = uniqueByChecksum(images.filter((image) => !(again ? resumed : existing).has(image.checksum)));
    const { remaining } = await client.request('/api/auth/quota', QuotaResponse);
    const fits = options.dryRun ? fresh : fresh.slice(0, remaining);
    const setbacks = new Map<string, Setback>();
    for (const image of fresh.slice(fits.length)) {
      setbacks.set(image.checksum, {
        outcome: 'over_quota',
        problem: { code: 'quota_exceeded', detail: `over the ${remaining} images left in this month's quota` },
      });
    }
    if (fresh.length > fits.length) {
      reporter.line(
        `${fresh.length - fits.length} of ${fresh.length} new images do not fit in the ${remaining} left this month`,
      );
    }

    if (options.dryRun) {
      // With `allow`, what the account holds would be uploaded again all the same (but for a picked-up run's own).
      const held = again ? resumed : existing;
      const named = await currentImages(client, new Set(held.values()), []);
      return report(client, images, {
        existing: held,
        uploaded: new Set(),
        named,
        setbacks,
        batches: [],
        dryRun: true,
      });
    }

    /** With `allow`: checksum → the image this run made of it (not the account's earliest, which check names). */
    const madeNow = new Map(resumed);

    for (let start = 0; start < fits.length; start += FILES_PER_REQUEST) {
      const group = fits.slice(start, start + FILES_PER_REQUEST);
      reporter.line(`uploading ${start + 1}–${start + group.length} of ${fits.length}…`);
      const answer = await upload(client, group, options);
      if (answer.batchId) {
        state.batches.push(answer.batchId);
        await writeState(statePath, state);
      }
      for (const file of answer.rejected) {
        const image = group.find((candidate) => candidate.name === file.originalFilename);
        if (image)
          setbacks.set(image.checksum, { outcome: 'rejected', problem: { code: file.code, detail: file.detail } });
      }
      for (const [checksum, imageId] of acceptedIds(group, answer.accepted)) madeNow.set(checksum, imageId);
    }

    // What the account holds now decides what was uploaded, whatever the answers said (with `allow`, the answers:
    // the account held those files before).
    const ids = new Map([...(await checkExisting(client, images)), ...madeNow]);
    const uploaded = new Set(
      fits.filter((image) => (again ? madeNow : ids).has(image.checksum)).map((image) => image.checksum),
    );
    for (const checksum of uploaded) setbacks.delete(checksum);
    // The batches this run (or the one it picks up) started, and any other still naming one of these files.
    const before = await currentImages(client, new Set(ids.values()), state.batches);
    const atWork = [...before.values()].filter((image) => image.status === 'queued' || image.status === 'processing');
    await watchBatches(client, [...new Set([...state.batches, ...atWork.map((image) => image.batchId)])], reporter);
    let named = await currentImages(client, new Set(ids.values()), state.batches);
    if (options.approve) {
      await approve(client, [...named.values()]);
      named = await currentImages(client, new Set(ids.values()), state.batches);
    }
    const result = await report(client, images, {
      existing: ids,
      uploaded,
      named,
      setbacks,
      batches: [...new Set([...named.values()].map((image) => image.batchId))],
      dryRun: false,
    });
    const delivery = deliveryOf(options, home);
    if (delivery) Object.assign(result, await deliver(client, result.files, images, delivery, reporter));
    await unlink(statePath).catch(() => undefined);
    return result;
  } finally {
    reporter.stop();
  }
}

/** The folder a run keeps its state and undo manifest in: the first folder named, or the first file's folder. */
function runFolder(paths: string[]): string {
  const first = resolve(paths[0]!);
  return /\.[a-z0-9]+$/i.test(first) ? dirname(first) : first;
}

async function readState(path: string, server: string): Promise<z.infer<typeof RunState>> {
  const stored = await readFile(path, 'utf8')
    .then((text) => RunState.parse(JSON.parse(text)))
    .catch(() => undefined);
  return stored?.server === server ? stored : { server, batches: [] };
}

/** Written whole or not at all (a run cut short mid-write must leave the last state). */
async function writeState(path: string, state: z.infer<typeof RunState>) {
  await writeFile(`${path}.tmp`, JSON.stringify(state));
  await renameFile(`${path}.tmp`, path);
}

/** The account's images with these files' bytes: checksum → image id (one request per 1,000 files). */
async function checkExisting(client: ApiClient, images: LocalImage[]): Promise<Map<string, string>> {
  const checksums = [...new Set(images.map((image) => image.checksum))];
  const found = new Map<string, string>();
  for (let start = 0; start < checksums.length; start += CHECK_CHUNK) {
    const { existing } = await client.request('/api/batch/check', BatchCheckResponse, {
      method: 'POST',
      json: { checksums: checksums.slice(start, start + CHECK_CHUNK) },
    });
    for (const match of existing) found.set(match.checksum, match.imageId);
  }
  return found;
}

function uniqueByChecksum(images: LocalImage[]): LocalImage[] {
  const seen = new Set<string>();
  return images.filter((image) => !seen.has(image.checksum) && seen.add(image.checksum));
}

interface RequestOutcome {
  batchId?: string;
  accepted: { imageId: string; originalFilename: string }[];
  rejected: { originalFilename: string; code: string; detail: string }[];
}

/** One upload request; one the API refused whole gives each file its problem (per file when the API names them). */
async function upload(client: ApiClient, group: LocalImage[], fields: UploadFields): Promise<RequestOutcome> {
  try {
    return await uploadRequest(client, group, fields);
  } catch (error) {
    if (!(error instanceof ApiError) || ![402, 409, 413, 415, 422].includes(error.status)) throw error;
    const perFile = new Map(error.errors.map((entry) => [entry.path, entry]));
    return {
      accepted: [],
      rejected: group.map((image) => ({
        originalFilename: image.name,
        code: perFile.get(image.name)?.code ?? error.code ?? 'upload_rejected',
        detail: perFile.get(image.name)?.message ?? error.message,
      })),
    };
  }
}

/** The images of these batches by checksum (the first of each), read a page at a time. */
async function imagesOfBatches(client: ApiClient, batchIds: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const batchId of new Set(batchIds)) {
    let cursor: string | null = '';
    while (cursor !== null) {
      const page: z.infer<typeof ImageList> = await client.request(
        `/api/image/batch/${batchId}?limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        ImageList,
      );
      for (const image of page.items) if (!found.has(image.checksum)) found.set(image.checksum, image.id);
      cursor = page.nextCursor;
    }
  }
  return found;
}

/** The accepted files of one request by checksum: the answer lists them in the order sent, by name. */
function acceptedIds(group: LocalImage[], accepted: RequestOutcome['accepted']): Map<string, string> {
  const ids = new Map<string, string>();
  let next = 0;
  for (const image of group) {
    const file = accepted[next];
    if (file && file.originalFilename === image.name.trim()) {
      ids.set(image.checksum, file.imageId);
      next += 1;
    }
  }
  return ids;
}

/**
 * The images by id, read a page of a batch at a time: first the batches this run knows, then the account's other
 * batches (newest first) until every id is found, so a thousand images cost a few dozen requests.
 */
async function currentImages(
  client: ApiClient,
  wanted: Set<string>,
  knownBatches: string[],
): Promise<Map<string, ImageView>> {
  const found = new Map<string, ImageView>();
  const readBatch = async (batchId: string) => {
    let cursor: string | null = '';
    while (cursor !== null) {
      const page: z.infer<typeof ImageList> = await client.request(
        `/api/image/batch/${batchId}?limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        ImageList,
      );
      for (const image of page.items) if (wanted.has(image.id)) found.set(image.id, image);
      cursor = page.nextCursor;
    }
  };
  const visited = new Set<string>();
  for (const batchId of new Set(knownBatches)) {
    visited.add(batchId);
    await readBatch(batchId);
  }
  let cursor: string | null = '';
  while (found.size < wanted.size && cursor !== null) {
    const page: z.infer<typeof BatchList> = await client.request(
      `/api/batch?limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      BatchList,
    );
    for (const batch of page.items) {
      if (visited.has(batch.batchId) || found.size >= wanted.size) continue;
      visited.add(batch.batchId);
      await readBatch(batch.batchId);
    }
    cursor = page.nextCursor;
  }
  return found;
}

/** Approves every named image of the run, one request per batch. */
async function approve(client: ApiClient, images: ImageView[]) {
  const byBatch = new Map<string, string[]>();
  for (const image of images.filter((candidate) => candidate.status === 'ready')) {
    byBatch.set(image.batchId, [...(byBatch.get(image.batchId) ?? []), image.id]);
  }
  for (const [batchId, imageIds] of byBatch) {
    for (let start = 0; start < imageIds.length; start += CHECK_CHUNK) {
      await client.request(`/api/image/batch/${batchId}/approve`, z.object({ approved: z.number() }), {
        method: 'POST',
        json: { imageIds: imageIds.slice(start, start + CHECK_CHUNK) },
      });
    }
  }
}

/** What became of one local file, in the order the checks apply. */
function outcomeOf(file: {
  setback: Setback | undefined;
  wouldUpload: boolean;
  uploadedNow: boolean;
  named: boolean;
}): RenamedFile['outcome'] {
  if (file.setback) return file.setback.outcome;
  if (file.wouldUpload) return 'would_upload';
  if (!file.uploadedNow) return 'already_uploaded';
  return file.named ? 'uploaded' : 'failed';
}

function report(
  client: ApiClient,
  images: LocalImage[],
  run: {
    existing: Map<string, string>;
    uploaded: Set<string>;
    named: Map<string, ImageView>;
    setbacks: Map<string, Setback>;
    batches: string[];
    dryRun: boolean;
  },
): RenameResult {
  const files = images.map((local): RenamedFile => {
    const imageId = run.existing.get(local.checksum) ?? null;
    const image = imageId ? run.named.get(imageId) : undefined;
    const setback = run.setbacks.get(local.checksum);
    const outcome = outcomeOf({
      setback,
      wouldUpload: run.dryRun && !imageId,
      uploadedNow: run.uploaded.has(local.checksum),
      named: Boolean(image?.filename),
    });
    return {
      path: local.path,
      originalName: local.name,
      newName: image?.filename ?? null,
      deliveredAs: null,
      score: image?.seo?.score ?? null,
      status: image?.status ?? null,
      outcome,
      imageId,
      batchId: image?.batchId ?? null,
      ...(setback
        ? { problem: setback.problem }
        : outcome === 'failed'
          ? { problem: { code: 'analysis_failed', detail: image?.error ?? 'the image got no name' } }
          : {}),
    };
  });
  const notRenamed = files.filter((file) => !file.newName && file.outcome !== 'would_upload').length;
  return {
    server: client.connection.server,
    dryRun: run.dryRun,
    files,
    batches: run.batches,
    uploaded: files.filter((file) => file.outcome === 'uploaded').length,
    alreadyUploaded: files.filter((file) => file.outcome === 'already_uploaded').length,
    notRenamed,
    exitCode: notRenamed > 0 ? EXIT.partly : EXIT.done,
  };
}

function deliveryOf(options: RenameOptions, home: string): Delivery | undefined {
  const copies = { embed: options.embed ?? false, strip: options.strip ?? 'none' };
  if (options.out) return { kind: 'zip', path: resolve(options.out), ...copies };
  if (options.copyTo) return { kind: 'copy', folder: resolve(options.copyTo), ...copies };
  if (options.inPlace) return { kind: 'in-place', manifestFolder: home };
  return undefined;
}
