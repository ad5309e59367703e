import type { VisionTag } from '@renamer/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ImageFacts,
  isCameraMadeFilename,
  isStopWord,
  nameBatch,
  normalizeFilename,
  parseTemplate,
  personTags,
  proposeName,
  uniqueShape,
} from '../src';
import { locale, tags } from './naming-arbitraries';

const shoes: VisionTag[] = [
  { label: 'red leather shoes', confidence: 1, source: 'keywords' },
  { label: 'shoe', confidence: 0.8, source: 'objects' },
];
const facts: ImageFacts = {
  originalFilename: 'IMG_4411.JPG',
  width: 4000,
  height: 3000,
  capturedAt: '2024-06-01T12:30:00',
  uploadedAt: new Date('2026-11-27T10:00:00Z'),
  camera: { make: 'Canon', model: 'Canon EOS R5' },
  seq: 7,
};

function template(text: string) {
  const parsed = parseTemplate(text, 'en');
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.template;
}

function named(text: string, tagList: readonly VisionTag[] = shoes, imageFacts: ImageFacts = facts) {
  const proposal = proposeName(tagList, { format: 'jpeg', locale: 'en', facts: imageFacts, template: template(text) });
  if (!proposal.ok) throw new Error(proposal.reason);
  return proposal.filename;
}

describe('a naming template', () => {
  it('puts literal text, the subject and the zero-padded position where the person wrote them', () => {
    expect(named('acme-{subject}-{seq:3}')).toBe('acme-red-leather-shoes-007.jpg');
    expect(named('{seq}_{subject}')).toBe('7-red-leather-shoes.jpg');
  });

  it("scores the subject, not the template's own words or numbers", () => {
    const proposal = proposeName(shoes, {
      format: 'jpeg',
      locale: 'en',
      facts,
      template: template('acme-{subject}-{seq:3}'),
    });
    expect(proposal.ok && proposal.seo.reasons.filter((reason) => !reason.passed).map((reason) => reason.rule)).toEqual(
      [],
    );
  });

  it('fills the date from the camera, else from the upload, in the three formats', () => {
    expect(named('{subject}-{date}')).toBe('red-leather-shoes-2024-06-01.jpg');
    expect(named('{subject}-{date:YYYY-MM}')).toBe('red-leather-shoes-2024-06.jpg');
    expect(named('{date:YYYY}-{subject}', shoes, { ...facts, capturedAt: null })).toBe('2026-red-leather-shoes.jpg');
  });

  it('fills the camera, the keywords, the place and the uploaded name, made safe', () => {
    expect(named('{subject}-{camera}')).toBe('red-leather-shoes-canon-eos-r5.jpg');
    expect(named('{original}-{subject}')).toBe('img-4411-red-leather-shoes.jpg');
    const withPlace = [...shoes, { label: 'Lisbon', confidence: 0.9, source: 'place' as const }];
    expect(named('{subject}-{place}', withPlace)).toBe('red-leather-shoes-lisbon.jpg');
    expect(named('{keywords}-{subject}')).toMatch(/^red-leather-shoes-[a-z]/);
  });

  it('leaves out a token without a value, with its hyphen', () => {
    expect(named('{subject}-{place}-{camera}', shoes, { ...facts, camera: null })).toBe('red-leather-shoes.jpg');
  });

  it('completes the subject to three words and never repeats a word of the literal text', () => {
    const mug = [{ label: 'mug', confidence: 0.9, source: 'objects' as const }];
    expect(named('mug-shop-{subject}', mug)).toBe('mug-shop-horizontal-format-june-2024.jpg');
  });

  it('cuts only the subject for length (never below three words), and puts a -2 at the very end', () => {
    const long = [
      { label: 'handmade burgundy leather walking shoes laces', confidence: 1, source: 'keywords' as const },
    ];
    const proposal = proposeName(long, {
      format: 'jpeg',
      locale: 'en',
      facts,
      template: template('long-brand-name-store-{subject}-{seq:4}'),
    });
    expect(proposal).toMatchObject({
      ok: true,
      filename: 'long-brand-name-store-handmade-burgundy-leather-walking-0007.jpg',
    });
    if (!proposal.ok) return;
    const taken = new Set([proposal.filename]);
    expect(uniqueShape(proposal.shape, 'jpeg', taken)?.filename).toBe(
      'long-brand-name-store-handmade-burgundy-leather-0007-2.jpg',
    );
  });

  it.each([
    ['{subject}-{colour}', 'Unknown token {colour}'],
    ['{subject', 'brace'],
    ['{seq:0}-{subject}', '{seq:N}'],
    ['{date:DD}-{subject}', 'date format'],
    ['img-{seq}', 'generic'],
    ['{date}', 'generic'],
    ['con', 'reserved'],
    [`${'brand-'.repeat(8)}{subject}`, 'no room'],
    ['   ', 'empty'],
  ])('refuses %s, naming the problem', (text, problem) => {
    const parsed = parseTemplate(text, 'en');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problem).toContain(problem);
  });
});

const templateText = fc.oneof(
  fc.constantFrom(
    '{subject}',
    'acme-{subject}-{seq:3}',
    '{date}-{subject}',
    '{original}',
    '{place}-{keywords}',
    '{camera}-{subject}-{date:YYYY}',
    'img-{seq}',
    '{subject}-{foo}',
  ),
  fc
    .array(
      fc.oneof(
        fc.constantFrom('{subject}', '{seq:2}', '{date}', '{place}', '{original}', '{keywords}', '{camera}', '-', '_'),
        fc.string({ maxLength: 12 }),
      ),
      { maxLength: 6 },
    )
    .map((parts) => parts.join('')),
);

const anyFacts: fc.Arbitrary<ImageFacts> = fc.record({
  originalFilename: fc.constantFrom('IMG_4411.JPG', 'DSC01234.jpg', 'red-shoes-final-v2.jpg', '東京.png', 'x.jpg'),
  width: fc.integer({ min: 1, max: 9000 }),
  height: fc.integer({ min: 1, max: 9000 }),
  capturedAt: fc.option(fc.constantFrom('2024-06-01T12:00:00', '2019:12:31 23:59:59', 'garbage'), { nil: null }),
  uploadedAt: fc.constant(new Date('2026-11-27T10:00:00Z')),
  seq: fc.integer({ min: 1, max: 5000 }),
});

const PURPOSE = ['blog', 'website', 'shop', 'post', 'photos', 'pictures', 'images', 'my', 'our', 'for'];

describe('a batch named with a template', () => {
  it('gives every image its own name within the rules, the date whole even when its numbers repeat', () => {
    const items = [1, 2, 3].map((index) => ({
      id: String(index),
      format: 'jpeg' as const,
      tags: shoes,
      facts: { ...facts, capturedAt: '2026-01-01T08:00:00', seq: index },
    }));
    for (const text of ['{subject}-{date}', 'the-{subject}-{date}-{seq:2}', 'acme-{keywords}-acme']) {
      const names = [...nameBatch(items, { locale: 'en', template: template(text) }).values()].map((proposal) =>
        proposal.ok ? proposal.filename : proposal.reason,
      );
      expect(new Set(names).size, text).toBe(3);
      for (const name of names) {
        expect(normalizeFilename(name, { format: 'jpeg', locale: 'en' }), text).toMatchObject({
          ok: true,
          filename: name,
        });
      }
      if (text.includes('{date}'))
        expect(
          names.every((name) => name.includes('2026-01-01')),
          text,
        ).toBe(true);
    }
  });
});

describe('a template whose subject the filename rules change', () => {
  const original = { ...facts, originalFilename: 'red-shoes-final-v2.jpg' };
  const keyword = (label: string): VisionTag[] => [{ label, confidence: 0, source: 'keywords' }];
  const shapeOf = (text: string, tagList: VisionTag[]) => {
    const proposal = proposeName(tagList, { format: 'jpeg', locale: 'en', facts: original, template: template(text) });
    if (!proposal.ok) throw new Error(proposal.reason);
    return proposal.shape;
  };

  it('keeps the template’s words apart from a subject of three words or more, a stop word never twice', () => {
    // The literal `A` and the keyword's `a` once; the subject filled to three words with the frame's shape.
    const shape = shapeOf('{original}A{subject}', keyword('con a/b'));
    expect(shape.before).toEqual(['red', 'shoes', 'final', 'v2', 'a']);
    expect(shape.subject.length).toBeGreaterThanOrEqual(3);
    expect(shape.subject).not.toContain('a');
  });

  it('yields to a name without the template when the rules would leave its subject under three words', () => {
    // Sixty characters leave room for two words of the subject only once a trailing `of` is trimmed.
    const shape = shapeOf('b 0 0 0 0 0 0 0 A 00{original}{subject}', keyword('smørrebrød cup of tea'));
    expect(shape.before).toEqual([]);
    expect(shape.subject.length).toBeGreaterThanOrEqual(3);
    expect(shape.subject.length).toBeLessThanOrEqual(6);
  });
});

describe('naming on any input', () => {
  it('gives a name within the rules, or refuses the template with a clear problem', () => {
    fc.assert(
      fc.property(tags, templateText, anyFacts, locale, (tagList, text, imageFacts, loc) => {
        const parsed = parseTemplate(text, loc);
        if (!parsed.ok) {
          expect(parsed.problem.length).toBeGreaterThan(10);
          return;
        }
        const proposal = proposeName(tagList, {
          format: 'jpeg',
          locale: loc,
          facts: imageFacts,
          template: parsed.template,
        });
        expect(proposal.ok).toBe(true);
        if (!proposal.ok) return;
        expect(normalizeFilename(proposal.stem, { format: 'jpeg', locale: loc })).toMatchObject({
          ok: true,
          stem: proposal.stem,
        });
        expect(proposal.stem.length).toBeLessThanOrEqual(60);
        expect(proposal.stem).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
        expect(isCameraMadeFilename(proposal.filename)).toBe(false);
        // The shape is the name: uniqueness builds on it, and a -2 keeps the rules too.
        expect(uniqueShape(proposal.shape, 'jpeg', new Set())?.filename).toBe(proposal.filename);
        const second = uniqueShape(proposal.shape, 'jpeg', new Set([proposal.filename]));
        if (second) {
          const stem = second.filename.slice(0, -'.jpg'.length);
          expect(normalizeFilename(stem, { format: 'jpeg', locale: loc })).toMatchObject({ ok: true, stem });
          expect(stem).toMatch(/-\d+$/);
        }
        const { subject, before, after } = proposal.shape;
        if (before.length === 0 && after.length === 0) {
          // Without a template (or when it yielded), the whole name keeps the 3-to-6 rule.
          expect(proposal.words.length).toBeGreaterThanOrEqual(3);
          expect(proposal.words.length).toBeLessThanOrEqual(6);
        } else if (parsed.template.parts.some((part) => part.kind === 'subject')) {
          expect(subject.length).toBeGreaterThanOrEqual(3);
          expect(subject.length).toBeLessThanOrEqual(6);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('never lets a word about the purpose or the person reach a name, nor a camera-made name survive', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...PURPOSE, 'mug', 'ceramic', 'coffee', 'travel', 'nature'), { maxLength: 8 }),
        tags,
        anyFacts,
        (contextWords, tagList, imageFacts) => {
          const person = personTags({
            keywords: [],
            context: contextWords.join(' '),
            originalFilename: imageFacts.originalFilename,
            locale: 'en',
          });
          const visible = tagList.filter((tag) => !['keywords', 'context', 'filename'].includes(tag.source));
          const proposal = proposeName([...person, ...visible], { format: 'jpeg', locale: 'en', facts: imageFacts });
          expect(proposal.ok).toBe(true);
          if (!proposal.ok) return;
          const fromVisible = new Set(visible.flatMap((tag) => tag.label.toLowerCase().split(/[^a-z]+/)));
          for (const word of proposal.words) {
            if (PURPOSE.includes(word)) expect(fromVisible.has(word) || isStopWord(word, 'en')).toBe(true);
          }
          expect(isCameraMadeFilename(proposal.filename)).toBe(false);
          expect(proposal.words.length).toBeGreaterThanOrEqual(3);
        },
      ),
      { numRuns: 300 },
    );
  });
});
