import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { IMAGE_FORMAT_ENTRIES, type StripMode } from '@renamer/contracts';
import { ExifTool, type WriteTags } from 'exiftool-vendored';
import { copyExtension, encodeCopy, stripArgs, type WebReadyCopy } from './copies';
import { keywordKey, type SeoFields, uniqueKeywords } from './seo-fields';

export interface MetadataEmbedder {
  /**
   * Copies `source` to a temp file, writes the SEO fields with exiftool, returns the result as a stream (temp file
   * removed when the stream closes or is destroyed, also on error) and its size.
   */
  embed(source: Readable, fields: SeoFields, extension: string): Promise<EmbeddedFile>;
  /** An XMP sidecar holding the SEO fields, for a file delivered as it is (camera RAW): same stream contract. */
  sidecar(fields: SeoFields): Promise<EmbeddedFile>;
  /**
   * A copy of `source` made for delivery (same stream contract as `embed`): re-encoded when `webReady` asks, then
   * its metadata stripped as `strip` says, then the SEO `fields` written in when given. `extension` is the stored
   * file's; the copy is in `webReady.target` when given.
   */
  copy(source: Readable, request: CopyRequest): Promise<EmbeddedFile>;
  close(): Promise<void>;
}

export interface CopyRequest {
  /** The stored file's extension, which tells its format. */
  extension: string;
  strip: StripMode;
  /** Written in after the strip, when given. */
  fields?: SeoFields;
  webReady?: WebReadyCopy;
}

export interface EmbeddedFile {
  stream: Readable;
  size: number;
}

/** exiftool could not write the fields into a file it can otherwise write (damaged metadata, say). */
export class MetadataEmbedError extends Error {
  override readonly name = 'MetadataEmbedError';
}

/**
 * The formats exiftool is asked to write, by each of their extensions, as the format table's `embedding` says: with
 * IPTC, or XMP alone (WebP, AVIF and GIF cannot hold IPTC: exiftool skips IPTC tags there without a word, so they are
 * not asked for). The copy is written under the format's usual extension, which exiftool knows (it knows no `.jfif`).
 */
const WRITABLE_FORMATS: ReadonlyMap<string, { extension: string; iptc: boolean }> = new Map(
  IMAGE_FORMAT_ENTRIES.flatMap(([, { extensions, embedding }]) =>
    embedding === 'iptc-xmp' || embedding === 'xmp'
      ? extensions.map(
          (extension) => [extension, { extension: extensions[0], iptc: embedding === 'iptc-xmp' }] as const,
        )
      : [],
  ),
);

/**
 * Formats exiftool strips metadata from besides the writable ones: HEIC, and camera RAW (its location can be taken
 * out of a copy; its SEO fields still go in a sidecar, never into it).
 */
const STRIPPABLE_TOO: ReadonlySet<string> = new Set([
  'heic',
  'heif',
  ...IMAGE_FORMAT_ENTRIES.flatMap(([, { extensions, cameraRaw }]) => (cameraRaw ? extensions : [])),
]);

/**
 * IPTC strings already in the file are in the character set it declares (Latin-1 when none): re-written from
 * themselves, they come out as UTF-8 too, so switching CodedCharacterSet garbles none of them. Keywords and the
 * character set itself are left out of the copy: they are set below.
 */
const REENCODE_IPTC_ARGS = ['-tagsFromFile', '@', '-IPTC:all', '--IPTC:Keywords', '--IPTC:CodedCharacterSet'];

export function createMetadataEmbedder(options: { tmpDir: string }): MetadataEmbedder {
  const exiftool = new ExifTool({ useMWG: false });
  let closed = false;

  async function writeFields(file: string, fields: SeoFields, iptc: boolean): Promise<void> {
    // JSONQ quotes every value: a keyword "1.50" or "true" must come back as written, not as a number or boolean.
    const existing = await exiftool.readRaw(file, {
      readArgs: ['-G1', '-api', 'StructFormat=JSONQ', '-XMP-dc:Subject', '-IPTC:all'],
    });
    const keywords = mergeKeywords(
      [
        ...asStrings(existing['XMP-dc:Subject' as keyof typeof existing]),
        ...asStrings(existing['IPTC:Keywords' as keyof typeof existing]),
      ],
      fields.keywords,
    );
    const tags = xmpTags(fields, keywords);
    const writeArgs = ['-overwrite_original'];
    if (iptc) {
      if (keywords.length > 0) tags['IPTC:Keywords'] = keywords;
      tags['IPTC:CodedCharacterSet'] = 'UTF8';
      const hasIptc = Object.keys(existing).some((name) => name.startsWith('IPTC:'));
      if (hasIptc && existing['IPTC:CodedCharacterSet' as keyof typeof existing] !== 'UTF8') {
        writeArgs.push(...REENCODE_IPTC_ARGS);
      }
    }
    await exiftool.write(file, tags as WriteTags, { writeArgs });
  }

  return {
    async embed(source, fields, extension) {
      const format = WRITABLE_FORMATS.get(extension.replace(/^\./, '').toLowerCase());
      const file = join(options.tmpDir, `${randomUUID()}${format ? `.${format.extension}` : ''}`);
      try {
        if (closed) throw new Error('The metadata embedder is closed');
        await mkdir(options.tmpDir, { recursive: true });
        await writeNew(source, file);
        if (format) {
          await writeFields(file, fields, format.iptc).catch((error: unknown) => {
            throw new MetadataEmbedError(`exiftool could not write the metadata: ${String(error)}`, { cause: error });
          });
        }
        return await streamAndRemove(file);
      } catch (error) {
        source.destroy(); // the object store's stream, when the copy never started
        await removeQuietly(file);
        throw error;
      }
    },
    async copy(source, { extension, strip, fields, webReady }) {
      const stored = extension.replace(/^\./, '').toLowerCase();
      const storedName = WRITABLE_FORMATS.get(stored)?.extension ?? stored;
      const input = join(options.tmpDir, `${randomUUID()}.${storedName || 'bin'}`);
      let file = input;
      try {
        if (closed) throw new Error('The metadata embedder is closed');
        await mkdir(options.tmpDir, { recursive: true });
        await writeNew(source, input);
        if (webReady) {
          file = join(options.tmpDir, `${randomUUID()}.${copyExtension(webReady.target)}`);
          const opened = await webReady.open(input);
          try {
            await encodeCopy(opened.image, webReady, strip !== 'all').toFile(file);
          } finally {
            await opened.release();
            await removeQuietly(input);
          }
        }
        const written = webReady ? copyExtension(webReady.target) : stored;
        const format = WRITABLE_FORMATS.get(written);
        const args = stripArgs(strip);
        // HEIC takes no SEO fields (the format table) but exiftool can take its location out.
        if (args.length > 0 && (format || STRIPPABLE_TOO.has(written))) {
          await exiftool.write(file, {}, { writeArgs: ['-overwrite_original', ...args] }).catch((error: unknown) => {
            throw new MetadataEmbedError(`exiftool could not strip the metadata: ${String(error)}`, { cause: error });
          });
        }
        if (format) {
          if (fields) {
            await writeFields(file, fields, format.iptc).catch((error: unknown) => {
              throw new MetadataEmbedError(`exiftool could not write the metadata: ${String(error)}`, { cause: error });
            });
          }
        }
        return await streamAndRemove(file);
      } catch (error) {
        source.destroy();
        await removeQuietly(input);
        await removeQuietly(file);
        throw error;
      }
    },
    async sidecar(fields) {
      const file = join(options.tmpDir, `${randomUUID()}.xmp`);
      try {
        if (closed) throw new Error('The metadata embedder is closed');
        await mkdir(options.tmpDir, { recursive: true });
        // Given a name that does not exist yet, exiftool creates an XMP file holding just these tags.
        await exiftool.write(file, xmpTags(fields, uniqueKeywords(fields.keywords)) as WriteTags);
        return await streamAndRemove(file);
      } catch (error) {
        await removeQuietly(file);
        throw error;
      }
    },
    async close() {
      closed = true;
      await exiftool.end();
    },
  };
}

function xmpTags(fields: SeoFields, keywords: string[]): Record<string, string | string[]> {
  const tags: Record<string, string | string[]> = {};
  if (fields.title) tags['XMP-dc:Title'] = fields.title;
  if (fields.description) tags['XMP-dc:Description'] = fields.description;
  if (fields.altText) tags['XMP-iptcCore:AltTextAccessibility'] = fields.altText;
  if (keywords.length > 0) tags['XMP-dc:Subject'] = keywords;
  return tags;
}

/** The file as a stream that removes it once closed or destroyed, and its size. */
async function streamAndRemove(file: string): Promise<EmbeddedFile> {
  const { size } = await stat(file);
  const stream = createReadStream(file);
  stream.once('close', () => void removeQuietly(file));
  return { stream, size };
}

/**
 * The keywords already in the file, each kept exactly as written (only exact repeats between XMP and IPTC go),
 * then the tags that are not among them.
 */
function mergeKeywords(existing: string[], tags: string[]): string[] {
  const kept = [...new Set(existing)];
  const present = new Set(kept.map(keywordKey));
  return [...kept, ...uniqueKeywords(tags).filter((tag) => !present.has(keywordKey(tag)))];
}

function asStrings(value: unknown): string[] {
  if (value === undefined || value === null || value === '') return [];
  return (Array.isArray(value) ? value : [value]).map(String);
}

/**
 * Writes `source` to `file`, which must not exist. The file is opened first: a write stream opens its file in its own
 * time, so with a source that fails at once the file would appear after the caller had removed it.
 */
async function writeNew(source: Readable, file: string): Promise<void> {
  const handle = await open(file, 'wx');
  await pipeline(source, handle.createWriteStream());
}

/** Cleanup must not hide the error that caused it, nor crash the process from a stream's close handler. */
async function removeQuietly(file: string): Promise<void> {
  await rm(file, { force: true }).catch(() => undefined);
}
