import type { VisionTag } from '@renamer/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DecodedImage, decodeImage } from '../src/decoded-image';
import { createObjectDetector, DEFAULT_OBJECT_THRESHOLD, type ObjectDetector } from '../src/models';
import { tfjsRuntime } from '../src/models/tfjs-runtime';
import { type FixturePhoto, tuningPhotos, unseenPhotos } from '../src/testing';

interface Judged {
  photo: FixturePhoto;
  tags: VisionTag[];
}

let detector: ObjectDetector;
let judged: Judged[];
let images: Map<string, DecodedImage>;

beforeAll(async () => {
  detector = await createObjectDetector();
  const photos = await tuningPhotos();
  images = new Map(
    await Promise.all(photos.map(async (photo) => [photo.file, await decodeImage(photo.path)] as const)),
  );
  judged = [];
  for (const photo of photos) judged.push({ photo, tags: await detector.detect(images.get(photo.file)!) });
}, 180_000);

afterAll(() => detector.close());

function isTrue(photo: FixturePhoto, label: string) {
  return photo.shows.includes(label) || photo.acceptable.includes(label);
}

describe('createObjectDetector', () => {
  it('names the animals and things plainly in the photographs', () => {
    const found = (file: string) => judged.find((entry) => entry.photo.file === file)?.tags.map((tag) => tag.label);
    expect(found('kleiber.jpg')).toContain('bird');
    expect(found('friends.jpg')).toContain('dog');
    expect(found('wine.jpg')).toContain('bottle');
    // A boat is a class of distinctive shape: 0.48 in the whole frame is past its own threshold (0.45).
    expect(found('evening-glow.jpg')).toContain('boat');
    const trueLabels = judged.flatMap(({ photo, tags }) => tags.filter((tag) => isTrue(photo, tag.label)));
    expect(trueLabels.length).toBeGreaterThanOrEqual(6);
  });

  it('says at most one wrong word over all the fixture photographs, and nothing on most landscapes', () => {
    const wrong = judged.flatMap(({ photo, tags }) =>
      tags.filter((tag) => !isTrue(photo, tag.label)).map((tag) => `${photo.file}: ${tag.label} ${tag.confidence}`),
    );
    expect(wrong.length, wrong.join('\n')).toBeLessThanOrEqual(1);
    const silent = judged.filter(({ tags }) => tags.length === 0);
    expect(silent.length).toBeGreaterThanOrEqual(judged.length / 2);
  });

  it('names no animal for a face filling the frame, and a truck only from 0.6', () => {
    const labelsOf = (file: string) => judged.find((entry) => entry.photo.file === file)!.tags.map((tag) => tag.label);
    // The cat's face is a 0.41 "bear" in the whole frame and 0.47 in the crop, its box 98 % and 100 % of either.
    expect(labelsOf('cat-face.jpg')).toEqual([]);
    // The red vintage car is a 0.58 truck, the pickup in the orchard 0.67.
    expect(labelsOf('vintage-car.jpg')).not.toContain('truck');
    expect(labelsOf('orchard-truck.jpg')).toContain('truck');
  });

  it('gives each word once, from the objects source, sure and best first', () => {
    for (const { tags } of judged) {
      const labels = tags.map((tag) => tag.label);
      expect(new Set(labels).size).toBe(labels.length);
      for (const tag of tags) {
        expect(tag.source).toBe(tag.label === 'portrait' ? 'composition' : 'objects');
        expect(tag.label).toMatch(/^[a-z]+( [a-z]+)*$/);
        expect(tag.confidence).toBeGreaterThanOrEqual(DEFAULT_OBJECT_THRESHOLD);
        expect(tag.confidence).toBeLessThanOrEqual(1);
      }
      expect([...tags].sort((a, b) => b.confidence - a.confidence)).toEqual(tags);
    }
  });

  it('says a class of distinctive shape from 0.45, at 0.5 on the shared scale, and an animal only from 0.5', () => {
    const tagsOf = (file: string) => judged.find((entry) => entry.photo.file === file)!.tags;
    // centernet scores the boats 0.48 and less in the whole frame, 0.55 in the centre crop (which its boats at 0.40-0.44
    // still call for): said with the shape allowance added back to the best score.
    expect(tagsOf('evening-glow.jpg')).toContainEqual({ label: 'boat', confidence: 0.6, source: 'objects' });
    // The giraffe (0.47) and the zebra (0.49) are past the big animals' 0.45, the bicycle (0.45) past a vehicle's.
    const labelsOf = (file: string) => tagsOf(file).map((tag) => tag.label);
    expect(labelsOf('giraffe.jpg')).toEqual(expect.arrayContaining(['giraffe', 'zebra']));
    expect(labelsOf('dog-bicycle.jpg')).toContain('bicycle');
    // A dandelion's seed head (0.43), a bee on a flower (0.38) and leaves hanging into a sky (0.45) are "birds" to
    // centernet: not said.
    for (const file of ['seeding.jpg', 'honey-bee.jpg', 'cliff.jpg']) {
      expect(
        tagsOf(file).map((tag) => tag.label),
        file,
      ).not.toContain('bird');
    }
  });

  it('answers the same for the same pixels (no result reused from an earlier image)', async () => {
    const kleiber = images.get('kleiber.jpg')!;
    const landscape = images.get('aitzgorri.jpg')!;
    expect(await detector.detect(landscape)).toEqual([]);
    const again = await detector.detect(kleiber);
    expect(again).toEqual(judged.find((entry) => entry.photo.file === 'kleiber.jpg')?.tags);
    expect(await detector.detect(landscape)).toEqual([]);
  });

  it('shares one model between detectors, and the last close frees its weights', async () => {
    const tf = await tfjsRuntime();
    const withOne = tf.memory().numTensors;
    const second = await createObjectDetector();
    expect(tf.memory().numTensors).toBe(withOne);
    await second.close();
    await expect(second.detect(images.get('kleiber.jpg')!)).rejects.toThrow(/closed/);
    expect(await detector.detect(images.get('friends.jpg')!)).toContainEqual(expect.objectContaining({ label: 'dog' }));

    const third = await createObjectDetector();
    await detector.close();
    await third.close();
    expect(tf.memory().numTensors).toBeLessThan(withOne - 100);
    detector = await createObjectDetector();
    expect(await detector.detect(images.get('kleiber.jpg')!)).toContainEqual(
      expect.objectContaining({ label: 'bird' }),
    );
  });
});

describe('people', () => {
  // The held-out set judges these rules (none of the tuning photographs shows a person near enough to be seen).
  let unseen: Map<string, VisionTag[]>;
  beforeAll(async () => {
    unseen = new Map();
    for (const photo of await unseenPhotos()) {
      if (['astronaut.jpg', 'camera.jpg', 'chelsea.jpg'].includes(photo.file)) {
        unseen.set(photo.file, await detector.detect(await decodeImage(photo.path)));
      }
    }
  }, 60_000);
  const labels = (file: string) => unseen.get(file)?.map((tag) => tag.label);

  it('finds the person of a portrait and calls the picture one', () => {
    expect(labels('astronaut.jpg')).toEqual(expect.arrayContaining(['person', 'portrait']));
    expect(unseen.get('astronaut.jpg')).toContainEqual({
      label: 'portrait',
      source: 'composition',
      confidence: expect.any(Number),
    });
  });

  it('finds a person who is not facing the camera, and does not call that a portrait', () => {
    expect(labels('camera.jpg')).toContain('person');
    expect(labels('camera.jpg')).not.toContain('portrait');
  });

  it('says people, not person or portrait, for a group, each body found around its face', async () => {
    // The astronaut four times in a 2 × 2 grid: four faces at about 0.9, but movenet, which sees one body at a time,
    // finds none in the whole frame (0.53, two keypoints), and centernet's persons score 0.33-0.38; around each face
    // movenet finds that face's body.
    const astronaut = (await unseenPhotos()).find((photo) => photo.file === 'astronaut.jpg')!;
    const { data, info } = await sharp(astronaut.path).raw().toBuffer({ resolveWithObject: true });
    const raw = { width: info.width, height: info.height, channels: 3 as const };
    const corners = [
      [0, 0],
      [1, 0],
      [0, 1],
      [1, 1],
    ] as const;
    const grid = await sharp({
      create: { width: info.width * 2, height: info.height * 2, channels: 3, background: '#000' },
    })
      .composite(corners.map(([x, y]) => ({ input: data, raw, left: x * info.width, top: y * info.height })))
      .removeAlpha()
      .raw()
      .toBuffer();
    const tags = await detector.detect({ pixels: grid, width: info.width * 2, height: info.height * 2, channels: 3 });
    const found = tags.map((tag) => tag.label);
    expect(found).toContain('people');
    expect(found).not.toContain('person');
    expect(found).not.toContain('portrait');
  });

  it("never takes an animal's face for a person, and never names a gender or an age", () => {
    expect(labels('chelsea.jpg')).not.toContain('person');
    const everyLabel = [...unseen.values(), ...judged.map(({ tags }) => tags)].flat().map((tag) => tag.label);
    for (const word of ['man', 'woman', 'boy', 'girl', 'child', 'male', 'female', 'old', 'young']) {
      expect(everyLabel).not.toContain(word);
    }
    // The one tuning photograph with a person near enough to be seen is person-horse.jpg: the dogs, the horses, the
    // fig and the stones never say a person.
    const personWords = judged.flatMap(({ photo, tags }) =>
      tags
        .filter((tag) => ['person', 'people', 'portrait'].includes(tag.label) && !isTrue(photo, tag.label))
        .map((tag) => `${photo.file}: ${tag.label}`),
    );
    expect(personWords).toEqual([]);
    const personHorse = judged.find(({ photo }) => photo.file === 'person-horse.jpg')!;
    expect(personHorse.tags.map((tag) => tag.label)).toContain('person');
  });
});
