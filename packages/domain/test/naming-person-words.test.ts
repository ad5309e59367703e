import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCameraMadeFilename, personTags, proposeName } from '../src';
import { locale } from './naming-arbitraries';

describe('isCameraMadeFilename', () => {
  it.each([
    'IMG_1234.JPG',
    'IMG_1234 (1).jpg',
    'IMG_1234-2.jpeg',
    'IMG_E4411.HEIC',
    'IMG_20240101_123456.jpg',
    'IMG-20240101-WA0001.jpg',
    'IMGP1234.JPG',
    '_MG_1234.CR2',
    'DSC01234.JPG',
    'DSC_0042.NEF',
    '_DSC1234.ARW',
    'DSCF1234.RAF',
    'DSCN1234.jpg',
    'P1000123.JPG',
    'PICT0001.JPG',
    'CIMG0001.JPG',
    'SAM_1234.JPG',
    'GOPR0001.JPG',
    'GH010001.MP4',
    'DJI_0001.JPG',
    'PXL_20240101_123456789.jpg',
    'PXL_20240101_123456789.PORTRAIT.jpg',
    'PXL_20240101_123456789.MP.jpg',
    'MVIMG_20190101_123456.jpg',
    'WP_20140101_001.jpg',
    '20240101_123456.jpg',
    '2024-01-01 12.34.56.jpg',
    '20240101T123456Z.jpg',
    'Screenshot_2024-01-05-12-34-56.png',
    'Screenshot 2024-01-05 at 12.34.56.png',
    'Screen Shot 2020-01-01 at 1.23.45 PM.png',
    'Screenshot_20240101-123456_Chrome.png',
    'Bildschirmfoto 2024-01-05 um 12.34.56.png',
    'Capture d’écran 2024-01-05 à 12.34.56.png',
    'Captura de pantalla 2024-01-05 123456.png',
    'WhatsApp Image 2024-01-01 at 12.34.56.jpeg',
    'WhatsApp Image 2024-01-01 at 12.34.56 (1).jpeg',
    'signal-2024-01-01-123456.jpg',
    'photo_2024-01-01_12-34-56.jpg',
    'FB_IMG_1712345678901.jpg',
    'received_1234567890123456.jpeg',
    'image (3).png',
    'image.png',
    'unnamed.jpg',
    'download.jpg',
    'photo-1506744038136-46273834b3fb.jpg',
    'a3f5c9e8b7d61234.jpg',
    'd41d8cd98f00b204e9800998ecf8427e.png',
    '3f2504e0-4f89-11d3-9a0c-0305e82c3301.jpg',
    '1234567.jpg',
    '2024.jpg',
    '2024-06-01.jpg',
    '/home/me/Pictures/IMG_1234.JPG',
  ])('%s is camera-made', (name) => {
    expect(isCameraMadeFilename(name)).toBe(true);
  });

  it.each([
    'red-shoes.jpg',
    'IMG_1234 red shoes.jpg',
    'Sunset 2024.jpg',
    'portrait.jpg',
    'ceramic_mug_front.png',
    'lake-bled-morning.jpg',
    'Grüße aus Köln.jpg',
    'cafe.jpg',
    'iphone-15-pro.jpg',
  ])('%s is a person’s name', (name) => {
    expect(isCameraMadeFilename(name)).toBe(false);
  });
});

describe('personTags', () => {
  it('keeps each keyword whole, splits the context into phrases and reads a name a person gave', () => {
    expect(
      personTags({
        keywords: ['Ceramic Mug', 'the cup of tea', 'photo'],
        context: 'Handmade ceramic mugs for our coffee shop, made in Lisbon.',
        originalFilename: 'blue-mug-final-v2.jpg',
        locale: 'en',
      }),
    ).toEqual([
      { label: 'ceramic mug', confidence: 1, source: 'keywords' },
      { label: 'cup of tea', confidence: 1, source: 'keywords' },
      { label: 'handmade ceramic mugs', confidence: 1, source: 'context' },
      { label: 'coffee', confidence: 1, source: 'context' },
      { label: 'made', confidence: 1, source: 'context' },
      { label: 'lisbon', confidence: 1, source: 'context' },
      { label: 'blue mug', confidence: 1, source: 'filename' },
    ]);
  });

  it.each<[string, string, string[]]>([
    ['en', 'photos for a travel and nature blog', ['travel', 'nature']],
    ['en', "Pictures for my client's Etsy shop: hand-knitted wool scarves", ['hand knitted wool scarves']],
    ['en', 'our website, my portfolio', []],
    ['de', 'Bilder für unseren Onlineshop: Keramik aus Portugal', ['keramik', 'portugal']],
  ])('takes only content words from a %s context: %s', (locale, context, labels) => {
    expect(personTags({ keywords: [], context, locale }).map((tag) => tag.label)).toEqual(labels);
  });

  it('never lets a word about the purpose or the person reach a name through the context', () => {
    const purpose = ['blog', 'website', 'shop', 'post', 'photos', 'pictures', 'images', 'my', 'our', 'for'];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...purpose, 'red', 'kite', 'beach', 'travel', 'nature', 'the', 'and'), {
          minLength: 1,
          maxLength: 10,
        }),
        locale,
        (words, loc) => {
          const tags = personTags({ keywords: [], context: words.join(' '), locale: loc });
          const named = proposeName(tags, { format: 'jpeg', locale: loc });
          const nameWords = named.ok ? named.words : [];
          for (const word of purpose) expect(nameWords).not.toContain(word);
        },
      ),
    );
  });

  it('leaves a camera-made name out', () => {
    expect(personTags({ keywords: [], originalFilename: 'IMG_4411.JPG', locale: 'en' })).toEqual([]);
    expect(
      personTags({ keywords: [], originalFilename: 'WhatsApp Image 2024-01-01 at 12.34.56.jpeg', locale: 'en' }),
    ).toEqual([]);
  });

  it('keeps the words of the locale as written and drops its stop words', () => {
    expect(
      personTags({ keywords: ['Grüne Tasse'], context: 'Tassen für das Café', originalFilename: null, locale: 'de' }),
    ).toEqual([
      { label: 'grüne tasse', confidence: 1, source: 'keywords' },
      { label: 'tassen', confidence: 1, source: 'context' },
      { label: 'café', confidence: 1, source: 'context' },
    ]);
  });

  it.each<[string, string, string[]]>([
    ['tr', 'Kırmızı şapka ve mavi çanta için', ['kırmızı şapka', 'mavi çanta']],
    ['pl', 'Żółty rower na ulicy w Łodzi', ['żółty rower', 'ulicy', 'łodzi']],
    ['fr', "Tasses en céramique pour l'atelier", ['tasses', 'céramique', 'atelier']],
    ['sv', 'Röda stugor vid sjön', ['röda stugor', 'sjön']],
  ])('splits a %s context at its own stop words: %s', (locale, context, labels) => {
    expect(personTags({ keywords: [], context, locale }).map((tag) => tag.label)).toEqual(labels);
  });

  it('gives nothing for nothing', () => {
    expect(personTags({ keywords: ['the', ''], context: '   ', originalFilename: '.jpg', locale: 'en' })).toEqual([]);
  });
});
