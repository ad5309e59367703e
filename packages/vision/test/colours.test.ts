import { describePixels } from '@renamer/vision';
import { type FixturePhoto, judgeWords, tuningPhotos } from '@renamer/vision/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeImage } from '../src/decoded-image';
import { COLOUR_NAMES } from '../src/pixels/colour-names';

interface Named {
  photo: FixturePhoto;
  labels: string[];
}

let named: Named[];

beforeAll(async () => {
  const photos = await tuningPhotos();
  named = [];
  for (const photo of photos) {
    const tags = describePixels(await decodeImage(photo.path)).filter((tag) => tag.source === 'colour');
    named.push({ photo, labels: tags.map((tag) => tag.label) });
  }
});

describe('colour words of the fixture photographs', () => {
  it('are at most one wrong word in all', () => {
    const wrong = named.flatMap(({ photo, labels }) =>
      judgeWords(photo, labels).wrong.map((label) => `${photo.file}: ${label}`),
    );
    expect(wrong.length, wrong.join('; ')).toBeLessThanOrEqual(1);
  });

  it('name a colour the photograph plainly shows for most photographs that show one', () => {
    // Grey, black and white (a black-and-white facade) are not named, so those photographs are not counted.
    const colourful = named.filter(({ photo }) =>
      photo.shows.some((word) => (COLOUR_NAMES as readonly string[]).includes(word)),
    );
    const shown = colourful.filter(({ photo, labels }) => judgeWords(photo, labels).correct.length > 0);
    expect(shown.length).toBeGreaterThanOrEqual(Math.ceil(colourful.length / 2));
  });

  it('are at most two per photograph, each once', () => {
    for (const { labels } of named) {
      expect(labels.length).toBeLessThanOrEqual(2);
      expect(new Set(labels).size).toBe(labels.length);
    }
  });

  it('do not name grey, black or white, which the hue histogram ignores', () => {
    const greyish = named.flatMap(({ labels }) => labels.filter((label) => ['grey', 'black', 'white'].includes(label)));
    expect(greyish).toEqual([]);
  });
});
