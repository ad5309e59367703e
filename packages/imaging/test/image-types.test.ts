import { describe, expect, it } from 'vitest';
import { ALLOWED_IMAGE_TYPES, declaredTypeAgrees, isImageMimeType, sniffImageType } from '../src';
import {
  HTML,
  makeApng,
  makeAvif,
  makeGif,
  makeJpeg,
  makePng,
  makeTiff,
  makeWebp,
  makeZip,
  noiseImage,
  SVG,
} from './fixtures';

describe('sniffImageType', () => {
  it.each([
    ['image/jpeg', 'jpg', makeJpeg],
    ['image/png', 'png', makePng],
    ['image/webp', 'webp', makeWebp],
    ['image/gif', 'gif', makeGif],
    ['image/avif', 'avif', makeAvif],
    ['image/tiff', 'tif', makeTiff],
  ])('recognises %s from its first bytes', async (mime, ext, make) => {
    const head = (await make()).subarray(0, 4100);
    expect(await sniffImageType(head)).toEqual({ mime, ext });
    expect(isImageMimeType(mime)).toBe(true);
  });

  it('recognises a TIFF whose first IFD lies beyond the head, as libvips writes it', async () => {
    const tiff = await noiseImage(400, 300).tiff().toBuffer();
    expect(tiff.readUInt32LE(4)).toBeGreaterThan(4100);
    expect(await sniffImageType(tiff.subarray(0, 4100))).toEqual({ mime: 'image/tiff', ext: 'tif' });
  });

  it('reports an animated PNG as a PNG', async () => {
    expect(await sniffImageType(await makeApng())).toEqual({ mime: 'image/png', ext: 'png' });
  });

  it.each([
    ['SVG', SVG],
    ['SVG with an XML declaration', `<?xml version="1.0" encoding="UTF-8"?>\n${SVG}`],
    ['HTML', HTML],
    ['plain text (say, named photo.jpg)', 'just some notes, not a photo\n'],
    ['nothing', ''],
  ])('finds no allowed type in %s', async (_name, text) => {
    const sniffed = await sniffImageType(Buffer.from(text));
    expect(sniffed === undefined || !isImageMimeType(sniffed.mime)).toBe(true);
  });

  it('names other binary types so they can be reported, without allowing them', async () => {
    expect(await sniffImageType(makeZip('a.txt', 'hello'))).toEqual({ mime: 'application/zip', ext: 'zip' });
    expect(await sniffImageType(Buffer.from('%PDF-1.7\n'))).toEqual({ mime: 'application/pdf', ext: 'pdf' });
    expect(isImageMimeType('application/zip')).toBe(false);
  });
});

describe('ALLOWED_IMAGE_TYPES', () => {
  it('is the contract list', () => {
    expect(ALLOWED_IMAGE_TYPES).toEqual([
      'image/jpeg',
      'image/png',
      'image/webp',
      'image/gif',
      'image/avif',
      'image/tiff',
      'image/heic',
      'image/heif',
      'image/x-adobe-dng',
      'image/x-canon-cr2',
      'image/x-canon-cr3',
      'image/x-nikon-nef',
      'image/x-sony-arw',
      'image/x-olympus-orf',
      'image/x-fujifilm-raf',
      'image/x-panasonic-rw2',
    ]);
    expect(isImageMimeType('image/svg+xml')).toBe(false);
    expect(isImageMimeType('IMAGE/JPEG')).toBe(false);
  });
});

describe('declaredTypeAgrees', () => {
  it.each([
    ['image/jpeg', 'image/jpeg'],
    ['IMAGE/JPEG', 'image/jpeg'],
    ['image/jpeg; charset=binary', 'image/jpeg'],
    [' image/png ', 'image/png'],
    ['image/jpg', 'image/jpeg'],
    ['image/pjpeg', 'image/jpeg'],
    ['image/x-png', 'image/png'],
    ['image/tif', 'image/tiff'],
    [undefined, 'image/webp'],
    ['', 'image/gif'],
    ['application/octet-stream', 'image/avif'],
    ['Application/Octet-Stream; name=x', 'image/avif'],
  ])('accepts %j for %s', (declared, sniffed) => {
    expect(declaredTypeAgrees(declared, sniffed)).toBe(true);
  });

  it.each([
    ['image/png', 'image/jpeg'],
    ['image/svg+xml', 'image/png'],
    ['text/html', 'image/jpeg'],
    ['image/jpeg', 'image/tiff'],
    ['image/heic', 'image/avif'],
  ])('refuses %j for %s', (declared, sniffed) => {
    expect(declaredTypeAgrees(declared, sniffed)).toBe(false);
  });
});
