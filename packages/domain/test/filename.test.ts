import { describe, expect, it } from 'vitest';
import {
  FILE_EXTENSIONS,
  type FilenameOptions,
  MAX_STEM_LENGTH,
  normalizeFilename,
  originalAsFilename,
  proposeFilename,
  uniqueFilename,
} from '../src';

const en: FilenameOptions = { format: 'jpeg', locale: 'en' };
const de: FilenameOptions = { format: 'jpeg', locale: 'de' };

describe('normalizeFilename', () => {
  it.each<[string, string, FilenameOptions]>([
    ['Grüne Äpfel auf Straße', 'gruene-aepfel-auf-strasse.jpg', de],
    ['Grüne Äpfel auf Straße', 'grune-apfel-auf-strasse.jpg', en],
    ['Österreich Küche', 'oesterreich-kueche.jpg', { format: 'jpeg', locale: 'de-AT' }],
    ['Österreich Küche', 'osterreich-kuche.jpg', { format: 'jpeg', locale: 'fr' }],
    ['Crème brûlée café', 'creme-brulee-cafe.jpg', en],
    [
      'Smørrebrød Æbleskiver Œuvre Łódź Đakovo Þingvellir',
      'smorrebrod-aebleskiver-oeuvre-lodz-dakovo-thingvellir.jpg',
      en,
    ],
    ['Bru\u0308cke in Mu\u0308nchen', 'bruecke-in-muenchen.jpg', { format: 'jpeg', locale: 'de-DE' }],
    ['Red Shoes -- Final (2).PNG', 'red-shoes-final-2.png', { format: 'png', locale: 'en' }],
    ['  red___shoes..on  the  BEACH ', 'red-shoes-on-the-beach.jpg', en],
    ["Women's Running Shoes", 'womens-running-shoes.jpg', en],
    ['the red shoes of', 'red-shoes.jpg', en],
    ['Der Hund und die Katze mit', 'hund-und-die-katze.jpg', de],
    ['die cast model', 'die-cast-model.jpg', en],
    ['red shoes red laces shoes', 'red-shoes-laces.jpg', en],
    ['con-table', 'con-table.jpg', en],
    ['sunset.jpg.jpeg', 'sunset.jpg', en],
    ['version 1.5', 'version-1-5.jpg', en],
    ['ｆｕｌｌｗｉｄｔｈ ﬁsh', 'fullwidth-fish.jpg', en],
  ])('%j → %s', (input, expected, options) => {
    expect(normalizeFilename(input, options)).toEqual({ ok: true, filename: expected, stem: expected.split('.')[0] });
  });

  it('takes the extension from the sniffed format, whatever was typed', () => {
    expect(normalizeFilename('red-shoes.jpg', { format: 'png', locale: 'en' })).toMatchObject({
      filename: 'red-shoes.png',
    });
    expect(normalizeFilename('scan.tiff', { format: 'webp', locale: 'en' })).toMatchObject({ filename: 'scan.webp' });
    expect(normalizeFilename('red-shoes', { format: 'tiff', locale: 'en' })).toMatchObject({
      filename: 'red-shoes.tif',
    });
  });

  it.each<[string, string, FilenameOptions]>([
    ['', 'empty', en],
    ['   ', 'empty', en],
    ['.jpg', 'empty', en],
    ['---', 'empty', en],
    ['the of and', 'empty', en],
    ['Москва 東京', 'empty', en],
    ['IMG_1234.JPG', 'only_generic_words', en],
    ['DSC_0042 copy.jpg', 'only_generic_words', en],
    ['img1234', 'only_generic_words', en],
    ['dsc01234 final edited', 'only_generic_words', en],
    ['PXL_20240101_123456789', 'only_generic_words', en],
    ['Screenshot 2024-01-05', 'only_generic_words', en],
    ['untitled picture', 'only_generic_words', en],
    ['2024', 'only_generic_words', en],
    ['Foto Kopie', 'only_generic_words', de],
    ['con', 'reserved_name', en],
    ['CON.jpg', 'reserved_name', en],
    ['nul', 'reserved_name', en],
    ['com1', 'reserved_name', en],
    ['LPT9', 'reserved_name', en],
    ['the aux', 'reserved_name', en],
  ])('refuses %j (%s)', (input, reason, options) => {
    expect(normalizeFilename(input, options)).toEqual({ ok: false, reason });
  });

  it('keeps German stop words inside the name and trims them only in German at the ends', () => {
    expect(normalizeFilename('mit dem Rad', de)).toMatchObject({ stem: 'rad' });
    expect(normalizeFilename('mit dem Rad', en)).toMatchObject({ stem: 'mit-dem-rad' });
  });

  it.each<[string, string]>([
    ['../../etc/passwd', 'path_separator'],
    ['shoes/red', 'path_separator'],
    ['C:\\photos\\red.jpg', 'path_separator'],
    ['red\nshoes', 'control_character'],
    ['red\tshoes', 'control_character'],
    ['red\u0000shoes', 'control_character'],
    ['red\u0085shoes', 'control_character'],
    ['invoice\u202egpj.exe', 'bidi_control'],
    ['red\u2066shoes\u2069', 'bidi_control'],
    ['red\u200fshoes', 'bidi_control'],
  ])('refuses %j, which it would otherwise have to guess at (%s)', (input, reason) => {
    expect(normalizeFilename(input, en)).toEqual({ ok: false, reason });
  });

  it('refuses a name over 60 characters instead of cutting what a person typed', () => {
    const input = 'sunset over the mountains with golden light reflecting on calm lake water';
    expect(normalizeFilename(input, en)).toEqual({ ok: false, reason: 'too_long' });
    expect(normalizeFilename('x'.repeat(MAX_STEM_LENGTH + 1), en)).toEqual({ ok: false, reason: 'too_long' });
    expect(normalizeFilename('x'.repeat(10_000), en)).toEqual({ ok: false, reason: 'too_long' });
  });

  it('accepts exactly 60 characters, counted after normalising', () => {
    const exact = `${'a'.repeat(29)} ${'b'.repeat(30)}`;
    expect(normalizeFilename(exact, en)).toMatchObject({ ok: true, stem: `${'a'.repeat(29)}-${'b'.repeat(30)}` });
    // Stop words at the ends and repeated words are dropped before the length is measured.
    expect(normalizeFilename(`the ${exact} ${'a'.repeat(29)} of`, en)).toMatchObject({ ok: true });
    expect(normalizeFilename(`${exact} c`, en)).toEqual({ ok: false, reason: 'too_long' });
  });

  it('gives the same answer for its own output', () => {
    for (const input of ['Grüne Äpfel auf Straße', 'the red shoes of', 'Red Shoes -- Final (2).PNG']) {
      const first = normalizeFilename(input, de);
      expect(first.ok).toBe(true);
      if (first.ok) expect(normalizeFilename(first.filename, de)).toEqual(first);
    }
  });
});

describe('originalAsFilename', () => {
  it.each<[string, string, FilenameOptions]>([
    ['IMG_4411.JPG', 'img-4411.jpg', en],
    ['IMG_4411.JPG', 'img-4411.png', { format: 'png', locale: 'en' }],
    ['DSC_0042 copy.jpeg', 'dsc-0042-copy.jpg', en],
    ['The Red Shoes of Summer.png', 'the-red-shoes-of-summer.jpg', en],
    ['Grüße aus Köln.jpg', 'gruesse-aus-koeln.jpg', de],
    ['../../etc/passwd', 'etc-passwd.jpg', en],
    ['red\u202eshoes.jpg', 'red-shoes.jpg', en],
    ['CON.jpg', 'con-file.jpg', en],
    ['東京.jpg', 'untitled.jpg', en],
    ['.jpg', 'untitled.jpg', en],
  ])('%j → %s', (original, expected, options) => {
    expect(originalAsFilename(original, options)).toBe(expected);
  });

  it('stays within 60 characters', () => {
    const name = originalAsFilename(`${'holiday '.repeat(3)}${'y'.repeat(80)}.jpg`, en);
    expect(name.length - '.jpg'.length).toBeLessThanOrEqual(MAX_STEM_LENGTH);
  });
});

describe('proposeFilename', () => {
  it('keeps up to six meaningful words in order of importance', () => {
    const words = ['red', 'running shoes', 'the', 'photo', 'red', 'on', 'beach', 'sand', 'sunset', 'ocean', 'waves'];
    expect(proposeFilename(words, en)).toEqual({
      ok: true,
      stem: 'red-running-shoes-beach-sand-sunset',
      filename: 'red-running-shoes-beach-sand-sunset.jpg',
    });
  });

  it('honours maxWords', () => {
    expect(proposeFilename(['alpine', 'lake', 'morning', 'mist'], { ...en, maxWords: 3 })).toMatchObject({
      stem: 'alpine-lake-morning',
    });
  });

  it('drops generic words, camera counters and stop words', () => {
    expect(proposeFilename(['IMG_1234', 'image', 'dog', 'with', 'frisbee', 'dsc01234', '2024'], en)).toMatchObject({
      stem: 'dog-frisbee',
    });
  });

  it('returns fewer than three words when no more are meaningful', () => {
    expect(proposeFilename(['photo', 'cat'], en)).toMatchObject({ ok: true, stem: 'cat', filename: 'cat.jpg' });
  });

  it('refuses when nothing meaningful is left', () => {
    expect(proposeFilename([], en)).toEqual({ ok: false, reason: 'empty' });
    expect(proposeFilename(['photo', 'the', 'IMG_0001'], en)).toEqual({ ok: false, reason: 'empty' });
    expect(proposeFilename(['Aux'], en)).toEqual({ ok: false, reason: 'reserved_name' });
  });

  it('transliterates by locale and uses German stop words in German', () => {
    expect(proposeFilename(['Brötchen', 'mit', 'Käse', 'und', 'Schinken'], { format: 'webp', locale: 'de' })).toEqual({
      ok: true,
      stem: 'broetchen-kaese-schinken',
      filename: 'broetchen-kaese-schinken.webp',
    });
    expect(proposeFilename(['Brötchen', 'Käse'], { format: 'avif', locale: 'en-GB' })).toMatchObject({
      filename: 'brotchen-kase.avif',
    });
  });

  it('stays within 60 characters', () => {
    const words = ['extraordinarily', 'photogenic', 'mountainous', 'landscapes', 'featuring', 'waterfalls'];
    const result = proposeFilename(words, en);
    expect(result).toMatchObject({ ok: true, stem: 'extraordinarily-photogenic-mountainous-landscapes-featuring' });
    expect(result.ok && result.stem.length).toBeLessThanOrEqual(MAX_STEM_LENGTH);
  });
});

describe('uniqueFilename', () => {
  it('keeps a free name', () => {
    expect(uniqueFilename('red-shoes.jpg', new Set(['blue-shoes.jpg']))).toBe('red-shoes.jpg');
  });

  it('adds -2, -3, … before the extension', () => {
    expect(uniqueFilename('red-shoes.jpg', new Set(['red-shoes.jpg']))).toBe('red-shoes-2.jpg');
    expect(uniqueFilename('red-shoes.jpg', new Set(['red-shoes.jpg', 'red-shoes-2.jpg']))).toBe('red-shoes-3.jpg');
  });

  it('treats the same stem with another extension as free', () => {
    expect(uniqueFilename('red-shoes.png', new Set(['red-shoes.jpg']))).toBe('red-shoes.png');
  });

  it('never repeats a word already in the stem', () => {
    expect(uniqueFilename('route-2.jpg', new Set(['route-2.jpg']))).toBe('route-2-3.jpg');
  });

  it('drops words from the end to keep the suffix within 60 characters', () => {
    const stem = 'sunset-over-the-mountains-with-golden-light-reflecting-lake';
    expect(stem.length).toBeLessThanOrEqual(MAX_STEM_LENGTH);
    const result = uniqueFilename(`${stem}.jpg`, new Set([`${stem}.jpg`]));
    expect(result).toBe('sunset-over-the-mountains-with-golden-light-reflecting-2.jpg');
    const long = 'x'.repeat(MAX_STEM_LENGTH);
    expect(uniqueFilename(`${long}.jpg`, new Set([`${long}.jpg`]))).toBe(`${'x'.repeat(MAX_STEM_LENGTH - 2)}-2.jpg`);
  });

  it('counts the suffix within maxWords, dropping the last word for it', () => {
    const six = 'red-ceramic-mug-on-wooden-table.jpg';
    expect(uniqueFilename(six, new Set([six]), { maxWords: 6 })).toBe('red-ceramic-mug-on-wooden-2.jpg');
    expect(uniqueFilename('red-mug.jpg', new Set(['red-mug.jpg']), { maxWords: 6 })).toBe('red-mug-2.jpg');
    expect(uniqueFilename(six, new Set([six]))).toBe('red-ceramic-mug-on-wooden-table-2.jpg');
  });

  it('counts past ten', () => {
    const taken = new Set(['cat.jpg', ...Array.from({ length: 9 }, (_, index) => `cat-${index + 2}.jpg`)]);
    expect(uniqueFilename('cat.jpg', taken)).toBe('cat-11.jpg');
  });
});

describe('file extensions', () => {
  it('come from the sniffed format', () => {
    // The contract's list (docs/api.md, "Filename rules"): RAW formats keep their own.
    expect(FILE_EXTENSIONS).toEqual({
      jpeg: 'jpg',
      png: 'png',
      webp: 'webp',
      gif: 'gif',
      avif: 'avif',
      tiff: 'tif',
      heic: 'heic',
      dng: 'dng',
      cr2: 'cr2',
      cr3: 'cr3',
      nef: 'nef',
      arw: 'arw',
      orf: 'orf',
      raf: 'raf',
      rw2: 'rw2',
    });
  });
});
