import { describe, expect, it } from 'vitest';
import { BOILERPLATE_FAMILIES, type BoilerplateFamily } from '../src/metadata';
import { boilerplateFamily } from '../src/metadata/boilerplate';
import { meaningfulText } from '../src/metadata/meaningful-text';

/** Values seen in real files, by family; each must be dropped whole. */
const DROPPED: Record<BoilerplateFamily, string[]> = {
  'camera-default': [
    'OLYMPUS DIGITAL CAMERA         ',
    'SONY DSC',
    'KONICA MINOLTA DIGITAL CAMERA',
    'SAMSUNG',
    'LG Electronics',
    'DCIM',
    'KODAK Digital Still Camera',
    'Exif_JPEG_PICTURE',
    'Shot on iPhone',
  ],
  'camera-settings': [
    '14-42mm f/3.5 1/250s ISO 200',
    'f/8 ISO 100',
    'ISO 400, 1/60 s',
    'f/2.8 at 35 mm',
    '50mm',
    'f/1.8',
    'DSLR',
  ],
  'image-format': ['Horizontal', 'Color Image', 'No People', 'Copy Space', 'Photography', 'Stock photo'],
  'lang-alt': ['x-default', '[x-default]', 'lang="x-default"', "xml:lang='en-US'"],
  placeholder: [
    'Default',
    'Untitled',
    'Untitled-1',
    'Picasa',
    'Screenshot 2023-06-14 at 18.22.05',
    'IMG_2041',
    'DSC01234.JPG',
    'Created with GIMP',
    'Adobe Photoshop CC 2019 (Windows)',
    'null',
    '---',
  ],
  licence: [
    'All rights reserved',
    '© 2023 Jane Doe',
    'Copyright 2021 Example Ltd',
    'CC BY-SA 4.0',
    'Licensed under the Creative Commons Attribution 4.0 International License',
    'Royalty-free stock image',
    'Photo by Jane Doe',
    'Not to be used without permission',
  ],
  address: ['https://example.com/photos/123', 'www.janedoe.photo', 'jane.doe@example.com', 'janedoephotography.com'],
};

/** The photographer's own words that look close to boilerplate but describe the picture. */
const KEPT = [
  'License plate on a barn door',
  'Made by hand in Porto',
  'A 35mm film camera on a desk',
  'Mount Olympus at dawn',
  'Copy shop on the corner',
  'Default Street, Dublin',
  'Photo booth at the fair',
  'Yellow tram climbing to Alfama',
  'Sony Center at night',
  'Black and white',
  'Landscape',
  'Close-up',
];

describe('boilerplate families', () => {
  it('has examples for every family', () => {
    expect(Object.keys(DROPPED).sort()).toEqual(Object.keys(BOILERPLATE_FAMILIES).sort());
  });

  for (const [family, values] of Object.entries(DROPPED)) {
    it.each(values)(`drops ${family}: %s`, (value) => {
      expect(boilerplateFamily(value.replace(/\s+/g, ' ').trim())).toBe(family);
      expect(meaningfulText(value)).toBe('');
    });
  }

  it.each(KEPT)('keeps the photographer’s words: %s', (value) => {
    expect(meaningfulText(value)).toBe(value);
  });
});

describe('meaningfulText', () => {
  it('keeps the sentences that describe the picture and drops the rest', () => {
    expect(meaningfulText('Sunset over the Tagus. All rights reserved. Contact: jane@example.com')).toBe(
      'Sunset over the Tagus.',
    );
    expect(meaningfulText('Colorful cups. Aarhus, Denmark. SONY NEX-3N, SONY E 16-50mm f/3.5-5.6 PZ OSS.')).toBe(
      'Colorful cups. Aarhus, Denmark.',
    );
  });

  it('drops a credit after a copyright mark and a leaked lang-alt attribute before the words', () => {
    expect(meaningfulText('Fishing boats at dawn © Jane Doe 2023')).toBe('Fishing boats at dawn');
    expect(meaningfulText('lang="x-default" Fishing boats at dawn')).toBe('Fishing boats at dawn');
  });

  it('drops a value made only of the camera’s words', () => {
    const camera = ['NIKON CORPORATION', 'NIKON D750', 'AF-S NIKKOR 24-70mm f/2.8G ED'];
    expect(meaningfulText('NIKON D750', camera)).toBe('');
    expect(meaningfulText('Nikon', camera)).toBe('');
    expect(meaningfulText('nikon-d750', camera)).toBe('');
    expect(meaningfulText('Nikon D750 in the snow', camera)).toBe('Nikon D750 in the snow');
  });

  it('tidies whitespace and control characters and gives nothing for punctuation alone', () => {
    expect(meaningfulText('  Harbour\u0000 at   night \t')).toBe('Harbour at night');
    expect(meaningfulText(' ... ')).toBe('');
  });
});
