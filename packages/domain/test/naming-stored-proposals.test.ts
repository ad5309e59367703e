import { randomUUID } from 'node:crypto';
import type { VisionTag } from '@renamer/contracts';
import { describe, expect, it } from 'vitest';
import type { StoredImage as Image } from '../src';
import { planProposals } from '../src';

const created = new Date('2026-06-01T10:00:00Z');

/** An analysed image as stored: its analyser's proposal untouched unless `filename` says otherwise. */
function image(tags: VisionTag[], proposed: string, changes: Partial<Image> = {}): Image {
  return {
    id: randomUUID(),
    status: 'ready',
    originalFilename: 'IMG_0001.JPG',
    proposedFilename: proposed,
    filename: proposed,
    metadata: { width: 800, height: 600, format: 'jpeg', hasAlpha: false },
    visionTags: tags,
    altText: 'An old alt text.',
    perceptualHash: null,
    createdAt: created,
    ...changes,
  };
}

const batch = { locale: 'en', keywords: ['stoneware'], context: null, template: null };
const mug: VisionTag = { label: 'mug', confidence: 0.8, source: 'objects' };

describe('names planned again from the stored analysis', () => {
  it("replaces the person's old words with the batch's current ones, in the name and the alt text", () => {
    const old = image(
      [{ label: 'teapot', confidence: 1, source: 'keywords' }, mug],
      'teapot-mug-horizontal-format.jpg',
    );
    const [planned] = planProposals(batch, [old], {});
    expect(planned).toMatchObject({ filename: 'stoneware-mug-horizontal-format.jpg' });
    expect(planned!.visionTags.map((tag) => tag.label)).toEqual(['stoneware', 'mug']);
    expect(planned!.altText).toMatch(/^Stoneware and mug/);
  });

  it("keeps the vision model's alt text, and leaves names a person gave unless asked", () => {
    const described = image([{ label: 'glazed mug', confidence: 0.95, source: 'llm' }, mug], 'glazed-mug.jpg', {
      altText: 'A glazed mug on a shelf.',
    });
    const renamed = image([mug], 'mug-horizontal-format-june-2026.jpg', { filename: 'my-blue-mug.jpg' });
    const plans = planProposals(batch, [described, renamed], {});
    expect(plans.map((plan) => [plan.image.id, plan.altText])).toEqual([[described.id, 'A glazed mug on a shelf.']]);
    expect(planProposals(batch, [described, renamed], { includeEdited: true }).map((plan) => plan.image.id)).toContain(
      renamed.id,
    );
  });
});
