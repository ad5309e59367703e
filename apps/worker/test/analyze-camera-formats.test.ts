import { fileURLToPath } from 'node:url';
import type { ImageFormat } from '@renamer/contracts';
import { closeCameraDecoding } from '@renamer/imaging';
import { afterAll, describe, expect, it } from 'vitest';
import { metadataStep } from '../src/analysis/metadata-step';
import { createStepPipeline } from '../src/analysis/step-pipeline';

const camera = (name: string) => fileURLToPath(new URL(`../../../fixtures/camera/${name}`, import.meta.url));
const context = (format: ImageFormat) => ({
  originalFilename: 'photo',
  keywords: [],
  context: null,
  locale: 'en',
  format,
});

afterAll(() => closeCameraDecoding());

describe('the metadata step on phone and camera files', () => {
  it.each([
    ['colorful-cups.heic', 'heic', { make: 'SONY', model: 'NEX-3N', dateTimeOriginal: '2014-04-29T14:25:26' }],
    ['dragonfly.dng', 'dng', { make: 'Canon', dateTimeOriginal: '2005-08-03T18:59:18' }],
    ['P1000207.RW2', 'rw2', { make: 'Panasonic', model: 'DMC-LX3', dateTimeOriginal: '2008-08-06T15:21:56' }],
    ['DSCF0031.RAF', 'raf', { make: 'FUJIFILM', model: 'FinePix S5Pro', dateTimeOriginal: '2007-05-22T13:58:30' }],
  ] as const)(
    'reads %s with the format the upload found: the camera and capture time of its own EXIF',
    async (name, format, exif) => {
      const analysis = await createStepPipeline([metadataStep]).analyze(camera(name), context(format));
      expect(analysis.metadata).toMatchObject({ format, exif });
      expect(analysis.provenance).toEqual([expect.objectContaining({ step: 'metadata', outcome: 'ok' })]);
    },
  );

  it('fails the attempt for a RAW whose previews are stubs, as the upload check would have refused it', async () => {
    await expect(createStepPipeline([metadataStep]).analyze(camera('DSC_0001.NEF'), context('nef'))).rejects.toThrow(
      /no readable JPEG preview/,
    );
  });
});
