import { describe, expect, it } from 'vitest';
import {
  IMAGE_FILE_EXTENSIONS,
  IMAGE_FORMAT_ENTRIES,
  IMAGE_FORMAT_TABLE,
  IMAGE_FORMATS,
  IMAGE_FORMATS_IN_WORDS,
  ImageFormat,
  isRawFormat,
  listInWords,
  UploadForm,
} from '../src';

// That every other list of formats (domain, imaging, the upload, the CLI, the OpenAPI documents) agrees with the
// table is checked over the whole tree, in test/image-formats.test.ts: packages never import the apps.

const all = <T>(pick: (facts: (typeof IMAGE_FORMAT_ENTRIES)[number][1]) => readonly T[]) =>
  IMAGE_FORMAT_ENTRIES.flatMap(([, facts]) => pick(facts));

describe('the image format table', () => {
  it('gives each type, declared name and extension to one format only', () => {
    const types = all((facts) => [...facts.mimeTypes, ...facts.declaredAliases]);
    const extensions = all((facts) => facts.extensions);
    expect(new Set(types).size).toBe(types.length);
    expect(new Set(extensions).size).toBe(extensions.length);
    for (const type of types) expect(type).toMatch(/^image\/[a-z0-9.+-]+$/);
    for (const extension of extensions) expect(extension).toMatch(/^[a-z0-9]+$/);
  });

  it('treats camera RAW alike: its own size limit, the embedded preview, an XMP sidecar', () => {
    for (const [format, facts] of IMAGE_FORMAT_ENTRIES) {
      const raw = facts.cameraRaw;
      expect({
        format,
        sizeLimit: facts.sizeLimit,
        preview: facts.preview,
        sidecar: facts.embedding === 'xmp-sidecar',
      }).toEqual({
        format,
        sizeLimit: raw ? 'camera-raw' : 'image',
        preview: raw ? 'embedded-jpeg' : 'decoded',
        sidecar: raw,
      });
    }
  });

  it('accepts HEIC and eight camera RAW formats, and a JPEG named .jfif', () => {
    expect(IMAGE_FORMATS).toEqual(Object.keys(IMAGE_FORMAT_TABLE));
    expect(IMAGE_FORMATS.filter((format) => isRawFormat(format))).toEqual([
      'dng',
      'cr2',
      'cr3',
      'nef',
      'arw',
      'orf',
      'raf',
      'rw2',
    ]);
    expect(ImageFormat.options).toEqual(IMAGE_FORMATS);
    expect(IMAGE_FILE_EXTENSIONS).toEqual(all((facts) => facts.extensions));
    expect(IMAGE_FILE_EXTENSIONS).toContain('jfif');
    expect(IMAGE_FORMAT_TABLE.heic.mimeTypes).toEqual(['image/heic', 'image/heif']);
  });

  it('names every format in words, and the upload’s files by them', () => {
    expect(IMAGE_FORMATS_IN_WORDS).toEqual({
      pictures: 'JPEG, PNG, WebP, GIF, AVIF, TIFF or HEIC',
      cameraRaw: 'DNG, CR2, CR3, NEF, ARW, ORF, RAF or RW2',
      shownByBrowsers: 'JPEG, PNG, WebP, GIF or AVIF',
    });
    const description = UploadForm.shape.files.description ?? '';
    for (const [, { label }] of IMAGE_FORMAT_ENTRIES) expect(description).toContain(label);
    expect(listInWords(['A'])).toBe('A');
    expect(listInWords(['A', 'B'])).toBe('A or B');
  });
});
