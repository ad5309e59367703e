// Every list of image formats in the tree agrees with the one table (`IMAGE_FORMAT_TABLE` in
// packages/contracts/src/image-formats.ts): domain, imaging, the upload, the CLI's file picker, the metadata
// boilerplate, the OpenAPI documents and docs/api.md. Here, not in packages/contracts, because packages never
// import the apps (.dependency-cruiser.cjs).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NOT_AN_ACCEPTED_TYPE, sizeLimitOf } from '../apps/api/src/services/batches/upload-checks';
import { isImageName } from '../apps/cli/src/files';
import {
  IMAGE_FILE_EXTENSIONS,
  IMAGE_FORMAT_ENTRIES,
  IMAGE_FORMATS_IN_WORDS,
  type ImageFormat,
  UploadForm,
} from '../packages/contracts/src';
import { FILE_EXTENSIONS, formatOfTypedName, normalizeFilename, originalAsFilename } from '../packages/domain/src';
import {
  ALLOWED_IMAGE_TYPES,
  declaredTypeAgrees,
  FORMAT_OF_TYPE,
  isImageMimeType,
  RAW_IMAGE_TYPES,
} from '../packages/imaging/src';
import { boilerplateFamily } from '../packages/vision/src/metadata/boilerplate';

const root = join(fileURLToPath(import.meta.url), '../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

const formats = IMAGE_FORMAT_ENTRIES;
const types = (pick: 'all' | 'raw') =>
  formats.flatMap(([, facts]) => (pick === 'all' || facts.cameraRaw ? facts.mimeTypes : []));
const extensions = formats.flatMap(([format, facts]) =>
  facts.extensions.map((extension) => [format, extension] as const),
);

describe('the format table and the lists derived from it', () => {
  it('domain: a renamed file gets the first extension; every typed extension names its format and is dropped', () => {
    expect(FILE_EXTENSIONS).toEqual(
      Object.fromEntries(formats.map(([format, facts]) => [format, facts.extensions[0]])),
    );
    for (const [format, extension] of extensions) {
      expect(formatOfTypedName(`IMG_1.${extension.toUpperCase()}`)).toBe(format);
      const named = { format: format as ImageFormat, locale: 'en' };
      expect(originalAsFilename(`Red Bike.${extension}`, named)).toBe(`red-bike.${FILE_EXTENSIONS[format]}`);
      expect(normalizeFilename(`red bike.${extension}`, named)).toMatchObject({ ok: true, stem: 'red-bike' });
    }
    expect(formatOfTypedName('notes.txt')).toBeUndefined();
  });

  it('imaging: the allowed types, the format of each and the declared names that agree with it', () => {
    expect(ALLOWED_IMAGE_TYPES).toEqual(types('all'));
    expect(RAW_IMAGE_TYPES).toEqual(types('raw'));
    for (const [format, facts] of formats) {
      for (const mime of facts.mimeTypes) {
        expect(isImageMimeType(mime)).toBe(true);
        expect(FORMAT_OF_TYPE[mime as keyof typeof FORMAT_OF_TYPE]).toBe(format);
        for (const declared of [...facts.mimeTypes, ...facts.declaredAliases]) {
          expect(declaredTypeAgrees(declared, mime)).toBe(true);
        }
        for (const [other, otherFacts] of formats) {
          if (other !== format) expect(declaredTypeAgrees(otherFacts.mimeTypes[0], mime)).toBe(false);
        }
      }
    }
    expect(Object.keys(FORMAT_OF_TYPE).sort()).toEqual(types('all').sort());
  });

  it('the upload: each type’s size limit, and every format named when a file is of none', () => {
    for (const [, facts] of formats) {
      for (const mime of facts.mimeTypes) {
        expect(isImageMimeType(mime) && sizeLimitOf(mime)).toBe(facts.sizeLimit);
      }
      expect(NOT_AN_ACCEPTED_TYPE).toContain(facts.label);
    }
  });

  it('the CLI picks a file by any extension of an accepted format, whatever its case, and nothing else', () => {
    for (const [, extension] of extensions) {
      expect(isImageName(`photo.${extension}`)).toBe(true);
      expect(isImageName(`PHOTO.${extension.toUpperCase()}`)).toBe(true);
      expect(isImageName(`.hidden.${extension}`)).toBe(false);
    }
    for (const name of ['photo.bmp', 'photo.svg', 'notes.txt', 'photo']) expect(isImageName(name)).toBe(false);
  });

  it('the file metadata: a title that is a file name of any accepted format is boilerplate', () => {
    for (const extension of IMAGE_FILE_EXTENSIONS)
      expect(boilerplateFamily(`harbour.${extension}`)).toBe('placeholder');
  });

  it('the OpenAPI documents: the upload’s files are described with every format, as committed', () => {
    const described = UploadForm.shape.files.description;
    const committed = JSON.parse(read('docs/openapi.json'));
    const files = committed.paths['/api/batch'].post.requestBody.content['multipart/form-data'].schema.properties.files;
    expect(files.description).toBe(described);
    for (const [, facts] of formats) expect(files.description).toContain(facts.label);
    expect(files.description).toContain(IMAGE_FORMATS_IN_WORDS.cameraRaw);
  });

  it('docs/api.md: the upload’s accepted types are the table’s', () => {
    const doc = read('docs/api.md');
    const accepted = doc.slice(doc.indexOf('- Accepted formats'), doc.indexOf('- Phone and camera files'));
    for (const [, facts] of formats) {
      for (const name of [facts.label, ...facts.mimeTypes, ...facts.extensions.map((extension) => `.${extension}`)]) {
        expect(accepted).toContain(name);
      }
    }
  });
});
