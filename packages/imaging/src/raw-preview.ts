import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { SafeExif } from '@renamer/contracts';
import { ExifTool } from 'exiftool-vendored';
import { safeExifOf } from './safe-exif';

/** The tags a camera stores its full-size JPEG preview under; the largest present is the preview. */
const PREVIEW_TAGS = ['PreviewImage', 'JpgFromRaw', 'OtherImage'] as const;
type PreviewTag = (typeof PREVIEW_TAGS)[number];

/** What a RAW file's own EXIF says, read by ExifTool. */
export interface RawFacts {
  exif?: SafeExif;
  /** 1–8: how the camera was held, to be applied to the preview. */
  orientation?: number;
  /** The largest embedded JPEG's tag, if the file has one. */
  previewTag?: PreviewTag;
}

let exiftool: ExifTool | undefined;

/** One long-lived ExifTool per process, started on first use (`closeRawReader` ends it). */
function reader(): ExifTool {
  exiftool ??= new ExifTool({ taskTimeoutMillis: 20_000, useMWG: false });
  return exiftool;
}

export async function closeRawReader(): Promise<void> {
  const closing = exiftool;
  exiftool = undefined;
  await closing?.end();
}

const BINARY_SIZE = /^\(Binary data (\d+) bytes/;
const WALL_CLOCK = /^(\d{4}):(\d{2}):(\d{2}) (\d{2}):(\d{2}):(\d{2})/;

function wallClockTime(value: unknown): string | undefined {
  const match = typeof value === 'string' ? WALL_CLOCK.exec(value) : null;
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second] = match;
  return `${year}-${month}-${day}T${hour}:${minute}:${second}`;
}

function largestPreview(tags: Record<string, unknown>): PreviewTag | undefined {
  let largest: { tag: PreviewTag; bytes: number } | undefined;
  for (const tag of PREVIEW_TAGS) {
    const bytes = Number(BINARY_SIZE.exec(String(tags[tag] ?? ''))?.[1] ?? 0);
    if (bytes > (largest?.bytes ?? 0)) largest = { tag, bytes };
  }
  return largest?.tag;
}

/** Make, model, capture time and orientation from the RAW's own EXIF, and where its preview is. */
export async function readRawFacts(path: string): Promise<RawFacts> {
  const tags: Record<string, unknown> = await reader().readRaw(path, [
    '-n',
    '-Make',
    '-Model',
    '-DateTimeOriginal',
    '-Orientation',
    ...PREVIEW_TAGS.map((tag) => `-${tag}`),
  ]);
  const orientation = Number(tags.Orientation);
  const exif = safeExifOf(tags.Make, tags.Model, wallClockTime(tags.DateTimeOriginal));
  const previewTag = largestPreview(tags);
  return {
    ...(exif && { exif }),
    ...(Number.isInteger(orientation) && orientation >= 1 && orientation <= 8 && { orientation }),
    ...(previewTag && { previewTag }),
  };
}

export interface RawPreview {
  /** The embedded JPEG preview in a temporary file beside the RAW; undefined when the file carries none. */
  previewPath?: string;
  facts: RawFacts;
  /** Deletes the temporary file. */
  release(): Promise<void>;
}

/** Extracts the RAW's largest embedded JPEG to a temporary file; the caller releases it. */
export async function openRawPreview(path: string): Promise<RawPreview> {
  const facts = await readRawFacts(path);
  if (!facts.previewTag) return { facts, release: async () => undefined };
  const previewPath = join(dirname(path), `renamer-preview-${randomUUID()}.jpg`);
  const release = () => rm(previewPath, { force: true });
  try {
    await reader().extractBinaryTag(facts.previewTag, path, previewPath);
  } catch (error) {
    await release();
    throw error;
  }
  return { previewPath, facts, release };
}

/** Runs `use` with the RAW's preview (see `openRawPreview`) and deletes the temporary file afterwards. */
export async function withRawPreview<T>(path: string, use: (preview: RawPreview) => Promise<T>): Promise<T> {
  const preview = await openRawPreview(path);
  try {
    return await use(preview);
  } finally {
    await preview.release();
  }
}
