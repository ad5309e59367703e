import { describePixels } from '@renamer/vision';
import { type FixturePhoto, judgeWords, tuningPhotos } from '@renamer/vision/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeImage } from '../src/decoded-image';

interface Described {
  photo: FixturePhoto;
  scene: string[];
  confidences: number[];
}

let described: Described[];

beforeAll(async () => {
  described = [];
  for (const photo of await tuningPhotos()) {
    const tags = describePixels(await decodeImage(photo.path));
    const scene = tags.filter((tag) => tag.source !== 'colour');
    described.push({ photo, scene: scene.map((tag) => tag.label), confidences: tags.map((tag) => tag.confidence) });
  }
});

const sceneOf = (file: string) => described.find(({ photo }) => photo.file === file)?.scene;

describe('scene and light words of the fixture photographs', () => {
  it('are at most one wrong word in all', () => {
    const wrong = described.flatMap(({ photo, scene }) =>
      judgeWords(photo, scene).wrong.map((label) => `${photo.file}: ${label}`),
    );
    expect(wrong.length, wrong.join('; ')).toBeLessThanOrEqual(1);
  });

  it('say something true of a good share of the photographs', () => {
    const right = described.filter(({ photo, scene }) => {
      const { correct, neutral } = judgeWords(photo, scene);
      return correct.length + neutral.length > 0;
    });
    expect(right.length).toBeGreaterThanOrEqual(Math.ceil(described.length / 3));
  });

  it('see the sky in clear blue skies and not indoors', () => {
    expect(sceneOf('kite.jpg')).toContain('sky');
    expect(sceneOf('bridge.jpg')).toContain('sky');
    for (const file of ['wine.jpg', 'free.jpg', 'greentock.jpg', 'picture-1a.jpg', 'colorful-cups.jpg']) {
      expect(sceneOf(file), file).not.toContain('sky');
    }
  });

  it('see the low sun of the backlit meadow and of the sunset, and name neither sunrise nor sunset', () => {
    expect(sceneOf('seeding.jpg')).toContain('golden hour');
    expect(sceneOf('sunset.jpg')).toContain('golden hour');
    const all = described.flatMap(({ scene }) => scene);
    expect(all).not.toContain('sunset');
    expect(all).not.toContain('sunrise');
  });

  it('do not call a warm wooden room or a lone orange bowl autumn', () => {
    expect(sceneOf('wine.jpg')).not.toContain('autumn');
    expect(sceneOf('picture-0b.jpg')).not.toContain('autumn');
  });

  it('see still water where the shore is mirrored, and nowhere else', () => {
    expect(sceneOf('summer-1am.jpg')).toContain('water');
    expect(sceneOf('darkest-hour.jpg')).toContain('water');
    // Green hills over a brown field mirror about the skyline (0.98) but hold no blue under the blue sky.
    expect(sceneOf('green-hills.jpg')).not.toContain('water');
    // A tiger in deep snow: white to the top of the frame, no sky.
    expect(sceneOf('tiger-snow.jpg')).toContain('snow');
    const water = described.filter(({ scene }) => scene.includes('water')).map(({ photo }) => photo.file);
    expect(
      water.every(
        (file) => sceneOf(file) && described.find(({ photo }) => photo.file === file)!.photo.shows.includes('water'),
      ),
    ).toBe(true);
  });

  it('see grass under an open top, and not the moss of a forest floor', () => {
    expect(sceneOf('aitzgorri.jpg')).toContain('grass');
    expect(sceneOf('path.jpg')).not.toContain('grass');
    expect(sceneOf('life.jpg')).not.toContain('grass');
  });

  it('call a sky over land a landscape, but not a sky alone or a room', () => {
    for (const file of ['bridge.jpg', 'picosdeeuropa.jpg', 'sunset.jpg'])
      expect(sceneOf(file), file).toContain('landscape');
    for (const file of ['kite.jpg', 'free.jpg', 'wine.jpg', 'friends.jpg'])
      expect(sceneOf(file), file).not.toContain('landscape');
  });

  it('call a picture whose background is out of focus a close-up, and not a sharp scene or a smooth sky', () => {
    for (const file of ['colorful-cups.jpg', 'fallen-leaf.jpg']) expect(sceneOf(file), file).toContain('close-up');
    for (const file of ['path.jpg', 'life.jpg', 'sunset.jpg', 'summer-1am.jpg', 'wine.jpg', 'free.jpg']) {
      expect(sceneOf(file), file).not.toContain('close-up');
    }
  });

  it('see flowers close up among leaves, and not fallen leaves, fruit, cups, a bowl or a warm room', () => {
    expect(sceneOf('honey-bee.jpg')).toContain('flower');
    expect(sceneOf('tulips.jpg')).toContain('flower');
    const flowers = described.filter(({ scene }) => scene.includes('flower')).map(({ photo }) => photo.file);
    // The yellow flower is in focus to its leaves: its petals fill 0.64 of the middle, green or dark 0.98 around.
    expect(flowers.sort()).toEqual(['honey-bee.jpg', 'tulips.jpg', 'yellow-flower.jpg']);
    // The green under the tulips is their stems and leaves, not grass.
    expect(sceneOf('tulips.jpg')).not.toContain('grass');
    for (const file of ['fallen-leaf.jpg', 'citrus-fruits.jpg', 'colorful-cups.jpg', 'picture-0b.jpg', 'wine.jpg']) {
      expect(sceneOf(file), file).not.toContain('flower');
    }
  });

  it('do not take green water for greenery', () => {
    expect(sceneOf('eagle.jpg')).not.toContain('greenery');
    expect(sceneOf('life.jpg')).toContain('greenery');
  });

  it('see a deep blue sky at dusk, above lit ground', () => {
    expect(sceneOf('night-bridge.jpg')).toContain('sky');
    for (const file of ['by-the-water.jpg', 'evening-glow.jpg', 'colorful-cups.jpg']) {
      expect(sceneOf(file), file).not.toContain('sky');
    }
  });

  it('give the kind of picture and the light sources of their own', async () => {
    const tags = describePixels(
      await decodeImage(described.find(({ photo }) => photo.file === 'path.jpg')!.photo.path),
    );
    expect(tags).toContainEqual(expect.objectContaining({ label: 'low light', source: 'light' }));
    const bridge = describePixels(
      await decodeImage(described.find(({ photo }) => photo.file === 'bridge.jpg')!.photo.path),
    );
    expect(bridge).toContainEqual(expect.objectContaining({ label: 'landscape', source: 'composition' }));
    expect(bridge).toContainEqual(expect.objectContaining({ label: 'sky', source: 'scene' }));
  });

  it('give every tag a confidence between the threshold confidence 0.5 and 1', () => {
    for (const { confidences } of described) {
      for (const confidence of confidences) {
        expect(confidence).toBeGreaterThanOrEqual(0.5);
        expect(confidence).toBeLessThanOrEqual(1);
      }
    }
  });
});
