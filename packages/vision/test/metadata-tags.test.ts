import type { VisionTag } from '@renamer/contracts';
import { describe, expect, it } from 'vitest';
import { METADATA_CONFIDENCE, metadataTags, type PhotoMetadata } from '../src/metadata';

const lisbonTram: PhotoMetadata = {
  title: 'Tram 28 climbing to Alfama',
  description: 'A yellow tram on a steep street at dusk. Lisbon, Portugal.',
  keywords: ['Tram', 'yellow', '1.50'],
  camera: 'OLYMPUS E-M10',
  lens: 'M.Zuiko 14-42mm',
  takenAt: '2023-06-14T18:22:05',
  place: { city: 'Lisbon', country: 'Portugal' },
};

describe('metadataTags', () => {
  it('turns each field into tags of its own source', () => {
    expect(metadataTags(lisbonTram)).toEqual<VisionTag[]>([
      { label: 'tram 28 climbing to alfama', confidence: METADATA_CONFIDENCE.title, source: 'title' },
      {
        label: 'a yellow tram on a steep street at dusk. lisbon, portugal.',
        confidence: METADATA_CONFIDENCE.description,
        source: 'description',
      },
      { label: 'tram', confidence: METADATA_CONFIDENCE['file-keywords'], source: 'file-keywords' },
      { label: 'yellow', confidence: METADATA_CONFIDENCE['file-keywords'], source: 'file-keywords' },
      { label: '1.50', confidence: METADATA_CONFIDENCE['file-keywords'], source: 'file-keywords' },
      { label: 'lisbon', confidence: METADATA_CONFIDENCE.city, source: 'place' },
      { label: 'portugal', confidence: METADATA_CONFIDENCE.country, source: 'place' },
      { label: 'june 2023', confidence: METADATA_CONFIDENCE.date, source: 'date' },
      { label: 'olympus e-m10', confidence: METADATA_CONFIDENCE.camera, source: 'camera' },
      { label: 'm.zuiko 14-42mm', confidence: METADATA_CONFIDENCE.camera, source: 'camera' },
    ]);
  });

  it('ranks the photographer’s title first and the camera below every other tag', () => {
    const tags = metadataTags(lisbonTram);
    const title = tags.find((tag) => tag.source === 'title')!;
    const camera = tags.filter((tag) => tag.source === 'camera');
    expect(Math.max(...tags.filter((tag) => tag.source !== 'title').map((tag) => tag.confidence))).toBeLessThan(
      title.confidence,
    );
    const others = tags.filter((tag) => tag.source !== 'camera');
    for (const tag of camera) expect(tag.confidence).toBeLessThan(Math.min(...others.map((other) => other.confidence)));
  });

  it('says the month and year of a date without a time, and includes a region when known', () => {
    const tags = metadataTags({
      keywords: [],
      takenAt: '2019-12-01',
      place: { city: 'Portland', region: 'Oregon', country: 'United States' },
    });
    expect(tags.map((tag) => [tag.source, tag.label])).toEqual([
      ['place', 'portland'],
      ['place', 'oregon'],
      ['place', 'united states'],
      ['date', 'december 2019'],
    ]);
  });

  it('lowercases in the person’s locale and drops quotes and the punctuation around a title or keyword', () => {
    const tags = metadataTags({ title: '“İSTANBUL” at night!', keywords: ['#Boğaz'] }, 'tr');
    expect(tags.map((tag) => tag.label)).toEqual(['istanbul at night', 'boğaz']);
  });

  it('gives no tags for a file that says nothing', () => {
    expect(metadataTags({ keywords: [] })).toEqual([]);
  });
});
