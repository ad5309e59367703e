import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectImageSafety, type SafetyResult, TRAILING_SLACK_BYTES } from '../src';
import {
  createScratch,
  HTML,
  makeAnimatedGif,
  makeAvif,
  makeDeclaredHugePng,
  makeGif,
  makeJpeg,
  makePng,
  makeTiff,
  makeWebp,
  makeZip,
  noiseBytes,
  PNG_SIGNATURE,
  type Scratch,
  SVG,
  withJpegComment,
} from './fixtures';

const MAX_PIXELS = 100_000_000;

let scratch: Scratch;
let jpeg: Buffer;
let png: Buffer;
beforeAll(async () => {
  scratch = await createScratch();
  jpeg = await makeJpeg();
  png = await makePng();
});
afterAll(() => scratch.remove());

async function inspect(bytes: Buffer | string, sniffedMime: string, maxPixels = MAX_PIXELS): Promise<SafetyResult> {
  const path = await scratch.write(`file-${Math.random().toString(36).slice(2)}`, bytes);
  return inspectImageSafety(path, { sniffedMime, maxPixels });
}

function refusal(result: SafetyResult): string {
  if (result.ok) throw new Error('expected the file to be refused');
  return result.reason;
}

describe('inspectImageSafety accepts', () => {
  it.each([
    ['image/jpeg', 'jpeg', makeJpeg, false],
    ['image/png', 'png', makePng, true],
    ['image/webp', 'webp', makeWebp, false],
    ['image/gif', 'gif', makeGif, false],
    ['image/avif', 'avif', makeAvif, false],
    ['image/tiff', 'tiff', makeTiff, false],
  ])('a valid %s', async (mime, format, make, hasAlpha) => {
    const result = await inspect(await make(), mime);
    expect(result).toMatchObject({ ok: true, metadata: { format, hasAlpha } });
    if (result.ok) expect([result.metadata.width, result.metadata.height]).toEqual([64, 48]);
  });

  it('an animated GIF, reporting its frames', async () => {
    const result = await inspect(await makeAnimatedGif(4), 'image/gif');
    expect(result).toMatchObject({ ok: true, metadata: { width: 20, height: 10, pages: 4 } });
  });

  it(`up to ${TRAILING_SLACK_BYTES} padding bytes after the image`, async () => {
    expect((await inspect(Buffer.concat([jpeg, Buffer.alloc(TRAILING_SLACK_BYTES)]), 'image/jpeg')).ok).toBe(true);
    expect((await inspect(Buffer.concat([png, Buffer.from('\r\n')]), 'image/png')).ok).toBe(true);
  });

  it('a JPEG followed by further complete JPEGs, as MPF and Ultra HDR files are', async () => {
    expect((await inspect(Buffer.concat([jpeg, await makeJpeg(16, 16)]), 'image/jpeg')).ok).toBe(true);
  });
});

describe('inspectImageSafety refuses by type and size', () => {
  it('a type that is not allowed, before reading the file', async () => {
    expect(refusal(await inspect(SVG, 'image/svg+xml'))).toBe('unsupported_type');
  });

  it('a PNG declaring 30000×30000 pixels, from its header alone', async () => {
    const bomb = makeDeclaredHugePng(30_000, 30_000);
    expect(bomb.length).toBeLessThan(1024);
    const started = performance.now();
    const result = await inspect(bomb, 'image/png');
    expect(result).toEqual({
      ok: false,
      reason: 'too_many_pixels',
      detail: '30000×30000 is 900000000 pixels, over the limit of 100000000',
    });
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('an animation whose frames together exceed the pixel limit', async () => {
    const gif = await makeAnimatedGif(4);
    expect(refusal(await inspect(gif, 'image/gif', 20 * 10 * 4 - 1))).toBe('too_many_pixels');
    expect((await inspect(gif, 'image/gif', 20 * 10 * 4)).ok).toBe(true);
  });

  it('a file whose decoder format differs from the sniffed type', async () => {
    expect(refusal(await inspect(jpeg, 'image/png'))).toBe('format_mismatch');
    expect(refusal(await inspect(await makeWebp(), 'image/avif'))).toBe('format_mismatch');
  });

  it('something no decoder reads', async () => {
    expect(refusal(await inspect('not an image at all', 'image/jpeg'))).toBe('unreadable');
    expect(refusal(await inspect(HTML, 'image/jpeg'))).toBe('unreadable');
  });
});

describe('inspectImageSafety refuses broken images', () => {
  it('a JPEG cut in half', async () => {
    expect(refusal(await inspect(jpeg.subarray(0, jpeg.length >> 1), 'image/jpeg'))).toBe('truncated');
  });

  it('a PNG cut in half', async () => {
    expect(refusal(await inspect(png.subarray(0, png.length >> 1), 'image/png'))).toBe('truncated');
  });

  it('a GIF without its trailer', async () => {
    const gif = await makeGif();
    expect(refusal(await inspect(gif.subarray(0, gif.length - 1), 'image/gif'))).toBe('truncated');
  });

  it('a PNG whose pixel data is corrupt though its chunk structure is whole, by decoding it', async () => {
    const corrupt = Buffer.from(png);
    const idat = corrupt.indexOf('IDAT', PNG_SIGNATURE.length, 'latin1');
    noiseBytes(64, 7).copy(corrupt, idat + 40);
    const result = await inspect(corrupt, 'image/png');
    expect(result).toMatchObject({ ok: false, reason: 'decode_failed' });
    if (!result.ok) expect(result.detail).not.toContain(scratch.dir);
  });

  it('a PNG whose chunk structure breaks after the header', async () => {
    const broken = Buffer.from(png);
    broken.write('IE?D', broken.length - 8, 'latin1');
    expect(refusal(await inspect(broken, 'image/png'))).toBe('malformed');
  });
});

describe('inspectImageSafety refuses a second format (polyglots)', () => {
  it('a JPEG with a ZIP appended', async () => {
    const result = await inspect(Buffer.concat([jpeg, makeZip('shell.jsp', '<% evil %>')]), 'image/jpeg');
    expect(result).toMatchObject({
      ok: false,
      reason: 'active_content',
      detail: `zip signature at byte ${jpeg.length}`,
    });
  });

  it('a JPEG with <script> appended', async () => {
    const result = await inspect(Buffer.concat([jpeg, Buffer.from('<script>alert(1)</script>')]), 'image/jpeg');
    expect(result).toMatchObject({
      ok: false,
      reason: 'active_content',
      detail: `script signature at byte ${jpeg.length}`,
    });
  });

  it('a JPEG hiding PHP in a comment segment, inside the image structure', async () => {
    expect(refusal(await inspect(withJpegComment(jpeg, '<?php system($_GET["c"]); ?>'), 'image/jpeg'))).toBe(
      'active_content',
    );
  });

  it('a JPEG whose comment holds an EOI marker is still walked to its real end', async () => {
    expect((await inspect(withJpegComment(jpeg, 'fake end \xff\xd9 here'), 'image/jpeg')).ok).toBe(true);
  });

  it('a TIFF with PDF and HTML inside (its extent is not walked, the scan still runs)', async () => {
    const tiff = await makeTiff();
    expect(refusal(await inspect(Buffer.concat([tiff, Buffer.from('%PDF-1.4\n')]), 'image/tiff'))).toBe(
      'active_content',
    );
    expect(refusal(await inspect(Buffer.concat([tiff, Buffer.from(HTML)]), 'image/tiff'))).toBe('active_content');
  });

  it.each([
    ['image/jpeg', makeJpeg],
    ['image/png', makePng],
    ['image/gif', makeGif],
    ['image/webp', makeWebp],
    ['image/avif', makeAvif],
  ])('a %s with data after its end', async (mime, make) => {
    const result = await inspect(Buffer.concat([await make(), noiseBytes(100, 3)]), mime);
    expect(result).toMatchObject({ ok: false, reason: 'trailing_data' });
  });

  it('more padding than the slack, or trailing bytes that are not padding', async () => {
    const tooMuch = Buffer.concat([jpeg, Buffer.alloc(TRAILING_SLACK_BYTES + 1)]);
    expect(refusal(await inspect(tooMuch, 'image/jpeg'))).toBe('trailing_data');
    expect(refusal(await inspect(Buffer.concat([jpeg, Buffer.from('abc')]), 'image/jpeg'))).toBe('trailing_data');
  });
});
