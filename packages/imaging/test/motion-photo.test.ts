import { readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectImageSafety, type SafetyResult } from '../src';
import { ByteReader } from '../src/byte-reader';
import { DeclaredTrailerCheck } from '../src/motion-photo';
import { type MotionPhotoXmp, readMotionPhotoXmp } from '../src/motion-photo-xmp';
import { walkJpeg } from '../src/structure/jpeg';
import { createScratch, type Scratch } from './fixtures';

const MOTION_DIR = fileURLToPath(new URL('../../../fixtures/motion/', import.meta.url));
const STILL = fileURLToPath(new URL('../../../fixtures/photos/free.jpg', import.meta.url));
const motion = (name: string) => `${MOTION_DIR}${name}`;
const MAX_PIXELS = 100_000_000;

let scratch: Scratch;
let stillBytes: number;
beforeAll(async () => {
  scratch = await createScratch();
  stillBytes = (await stat(STILL)).size;
});
afterAll(() => scratch.remove());

const inspect = (path: string) => inspectImageSafety(path, { sniffedMime: 'image/jpeg', maxPixels: MAX_PIXELS });

async function inspectBytes(bytes: Buffer): Promise<SafetyResult> {
  return inspect(await scratch.write(`file-${Math.random().toString(36).slice(2)}`, bytes));
}

function refused(result: SafetyResult): { reason: string; detail: string } {
  if (result.ok) throw new Error('expected the file to be refused');
  return { reason: result.reason, detail: result.detail };
}

describe('a JPEG whose trailer the file declares', () => {
  it.each([
    ['a Google Motion Photo (XMP Container:Directory, attributes)', 'motion-photo.MP.jpg'],
    ['a Google Motion Photo written as elements under the Camera: prefix', 'motion-photo-elements.MP.jpg'],
    ['a Google Motion Photo with a second JPEG (the GainMap item) before the video', 'motion-photo-gain-map.MP.jpg'],
    ['an older Google MicroVideo (GCamera:MicroVideoOffset)', 'micro-video.MP.jpg'],
    ['a Samsung Motion Photo (SEFT trailer with MotionPhoto_Data)', 'samsung-seft.jpg'],
  ])('is accepted as a Motion Photo: %s', async (_, name) => {
    const { width, height } = await sharp(STILL).metadata();
    const result = await inspect(motion(name));
    expect(result).toMatchObject({ ok: true, metadata: { format: 'jpeg', width, height, motionPhoto: true } });
  });

  it('leaves the still photograph without the flag', async () => {
    const result = await inspect(STILL);
    expect(result.ok).toBe(true);
    expect(result.ok && 'motionPhoto' in result.metadata).toBe(false);
  });
});

describe('a JPEG whose trailer nothing declares, or declares wrongly', () => {
  it('refuses the photograph with a video appended and no declaration', async () => {
    const trailing = (await stat(motion('undeclared-trailer.jpg'))).size - stillBytes;
    expect(refused(await inspect(motion('undeclared-trailer.jpg')))).toEqual({
      reason: 'trailing_data',
      detail: `${trailing} bytes after the image ends at byte ${stillBytes}: nothing in the file declares them`,
    });
  });

  it('refuses a Motion Photo whose directory declares a length the video does not have', async () => {
    const { reason, detail } = refused(await inspect(motion('wrong-length.MP.jpg')));
    expect(reason).toBe('trailing_data');
    expect(detail).toMatch(/the Motion Photo directory declares (\d+) bytes after the image, but (\d+) follow$/);
    const [, declared, found] = /declares (\d+) bytes after the image, but (\d+) follow/.exec(detail)!;
    expect(Number(declared) - Number(found)).toBe(100);
  });

  it('refuses a MicroVideo whose offset does not reach the trailer start', async () => {
    const file = await readFile(motion('micro-video.MP.jpg'));
    const extra = Buffer.alloc(32, 0x2a);
    const withExtra = Buffer.concat([file.subarray(0, stillBytesOf(file)), extra, file.subarray(stillBytesOf(file))]);
    const { reason, detail } = refused(await inspectBytes(withExtra));
    expect(reason).toBe('trailing_data');
    expect(detail).toMatch(/GCamera:MicroVideoOffset declares \d+ bytes of video, but \d+ follow/);
  });

  it('refuses bytes slipped between the image and a Samsung SEFT trailer', async () => {
    const file = await readFile(motion('samsung-seft.jpg'));
    const withGap = Buffer.concat([file.subarray(0, stillBytes), Buffer.alloc(64, 0x2a), file.subarray(stillBytes)]);
    const { reason, detail } = refused(await inspectBytes(withGap));
    expect(reason).toBe('trailing_data');
    expect(detail).toContain('the Samsung SEFT directory does not account for every byte after the image');
  });

  it('refuses a directory whose item lengths add up but do not fall where the second JPEG ends', async () => {
    const file = await readFile(motion('motion-photo-gain-map.MP.jpg'));
    const shifted = Buffer.from(
      file
        .toString('latin1')
        .replace(/(Semantic='GainMap' Item:Length=')(\d+)/, (_, head, length) => `${head}${Number(length) + 1}`)
        .replace(/(Semantic='MotionPhoto' Item:Length=')(\d+)/, (_, head, length) => `${head}${Number(length) - 1}`),
      'latin1',
    );
    expect(shifted.length).toBe(file.length);
    expect(refused(await inspectBytes(shifted)).detail).toContain(
      'the images after the primary one do not match the Motion Photo directory',
    );
  });

  it('refuses a Motion Photo whose video item is not an MP4', async () => {
    const file = await readFile(motion('motion-photo.MP.jpg'));
    const start = stillBytesOf(file);
    const notMp4 = Buffer.from(file);
    notMp4.write('mdat', start + 4, 'latin1');
    expect(refused(await inspectBytes(notMp4)).detail).toContain('the Motion Photo item is not an MP4');
  });
});

describe('the rest of the check still covers a Motion Photo', () => {
  it('finds active content inside the declared video', async () => {
    const file = await readFile(motion('motion-photo.MP.jpg'));
    const payload = Buffer.from('<script>alert(document.cookie)</script>');
    const infected = Buffer.from(file);
    payload.copy(infected, infected.length - payload.length);
    expect(refused(await inspectBytes(infected)).reason).toBe('active_content');
  });

  it('finds a Motion Photo cut short as undeclared trailing bytes', async () => {
    const file = await readFile(motion('motion-photo.MP.jpg'));
    const { reason, detail } = refused(await inspectBytes(file.subarray(0, file.length - 10)));
    expect(reason).toBe('trailing_data');
    expect(detail).toContain('the Motion Photo directory declares');
  });
});

describe('the declared-trailer check, whatever the pieces the trailer arrives in', () => {
  async function verdictInPieces(file: Buffer, pieceBytes: number) {
    const reader = new ByteReader(
      (async function* () {
        yield file;
      })(),
    );
    let xmp: MotionPhotoXmp = {};
    await walkJpeg(reader, (payload) => {
      xmp = readMotionPhotoXmp(payload) ?? xmp;
    });
    const imageEnd = reader.position;
    const check = new DeclaredTrailerCheck({ primaryEnd: imageEnd, xmp }, imageEnd);
    for (let at = imageEnd; at < file.length; at += pieceBytes) check.push(file.subarray(at, at + pieceBytes));
    return check.finish();
  }

  it.each(['motion-photo.MP.jpg', 'micro-video.MP.jpg', 'samsung-seft.jpg', 'wrong-length.MP.jpg'])(
    '%s',
    async (name) => {
      const file = await readFile(motion(name));
      const whole = await verdictInPieces(file, file.length);
      for (const pieceBytes of [1, 3, 7, 4096]) expect(await verdictInPieces(file, pieceBytes)).toEqual(whole);
      expect(whole.ok).toBe(name !== 'wrong-length.MP.jpg');
    },
  );
});

/** Where the still image of a fixture ends: each fixture is free.jpg (its XMP added) with the trailer appended. */
function stillBytesOf(file: Buffer): number {
  const mp4 = file.indexOf('ftyp', 0, 'latin1') - 4;
  if (mp4 < 0) throw new Error('no MP4 in the fixture');
  return mp4;
}
