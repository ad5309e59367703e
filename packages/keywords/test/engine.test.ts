import { describe, expect, it } from 'vitest';
import { checkKeywords, createLocalKeywordProvider } from '../src';
import { englishVocabulary } from '../src/vocabulary';

const local = createLocalKeywordProvider();
const enhance = (keywords: string[], context?: string, locale = 'en') =>
  local.enhance({ keywords, ...(context ? { context } : {}), locale });

describe('normalising and stop words', () => {
  it('lowercases, trims, collapses spaces, composes to NFC and drops stop words only at either end', () => {
    const checked = checkKeywords(['  The  Cup of Tea ', 'Cafe\u0301 au lait', 'İstanbul'], 'en');
    expect(checked.map((entry) => entry.normalized)).toEqual(['cup of tea', 'café au lait', 'i̇stanbul']);
    expect(checkKeywords(['İstanbul'], 'tr')[0]!.normalized).toBe('istanbul');
  });

  it('keeps the words of the curated lists that stopwords-iso calls stop words', () => {
    // stopwords-iso's English list holds each of these.
    for (const word of ['mug', 'home', 'ring', 'computer', 'old', 'small']) {
      expect(checkKeywords([word], 'en')[0], word).toMatchObject({ normalized: word, issues: [] });
    }
    expect(checkKeywords(['the', 'of the'], 'en').map((entry) => entry.issues)).toEqual([['no_words'], ['no_words']]);
  });

  it('uses the stop words of the locale’s language', () => {
    expect(checkKeywords(['die rote Tasse'], 'de-CH')[0]!.normalized).toBe('rote tasse');
    expect(checkKeywords(['le bol rouge'], 'fr')[0]!.normalized).toBe('bol rouge');
  });
});

describe('checking keywords', () => {
  it('names each problem a keyword has, and a repeated keyword once normalised', () => {
    const issues = checkKeywords(
      ['mug', 'k', 'y'.repeat(61), 'a<b', '&quot;mug&quot;', '&#x3c;', 'JavaScript :void(0)', 'mug\u2066', 'MUG '],
      'en',
    ).map((entry) => entry.issues);
    expect(issues).toEqual([
      [],
      ['too_short', 'no_words'],
      ['too_long'],
      ['markup'],
      ['markup'],
      ['markup'],
      ['markup'],
      ['control_characters'],
      ['duplicate'],
    ]);
  });

  it('does not take an ampersand or a colon in plain text for markup', () => {
    expect(checkKeywords(['salt & pepper', 'tea: green', 'r&b music'], 'en').map((entry) => entry.issues)).toEqual([
      [],
      [],
      [],
    ]);
  });
});

describe('enhance', () => {
  it('adds one modifier of each kind the keyword lacks, in English order, and keeps the keyword’s own', async () => {
    const { longTail } = await enhance(['handmade ceramic mug']);
    expect(longTail.slice(0, 4)).toEqual([
      'handmade white ceramic mug',
      'handmade ceramic kitchen mug',
      'handmade ceramic coffee mug',
      'handmade black ceramic mug',
    ]);
    // Style and material are there already: no second one is added.
    expect(longTail.filter((phrase) => /rustic|stoneware|glass /.test(phrase))).toEqual([]);
    expect(longTail).toContain('handmade ceramic mug for coffee lovers');
    expect(new Set(longTail).size).toBe(longTail.length);
    expect(longTail.length).toBeLessThanOrEqual(20);
  });

  it('puts the modifiers the context mentions first', async () => {
    const plain = await enhance(['wooden chair']);
    const withContext = await enhance(['wooden chair'], 'Rustic furniture for the garden, in green');
    expect(plain.longTail[0]).not.toBe(withContext.longTail[0]);
    expect(withContext.longTail.slice(0, 3)).toEqual([
      'rustic wooden chair',
      'green wooden chair',
      'wooden garden chair',
    ]);
  });

  it('shares the twenty phrases among the keywords', async () => {
    const { longTail } = await enhance(['mug', 'sunset', 'sneakers', 'lake']);
    for (const word of ['mug', 'sunset', 'sneakers', 'lake']) {
      expect(longTail.filter((phrase) => phrase.includes(word)).length, word).toBe(5);
    }
  });

  it('reads the head noun before a preposition, and a plural', async () => {
    const { categories, related } = await enhance(['knives for the kitchen', 'sunset over the sea']);
    expect(categories).toEqual([
      { category: 'kitchen and dining', keywords: ['knives for the kitchen'] },
      { category: 'sky and weather', keywords: ['sunset over the sea'] },
    ]);
    expect(related).toContain('chef knife');
  });

  it('offers the related terms of the keywords it knows beside one it does not', async () => {
    const { related } = await enhance(['coffee mug', 'ceramic']);
    expect(related.length).toBeGreaterThanOrEqual(3);
    expect(related).toEqual(expect.arrayContaining(['coffee cup', 'tea cup']));
  });

  it('says nothing of a keyword the lists do not know', async () => {
    expect(await enhance(['quantum flux capacitor'])).toEqual({
      keywords: ['quantum flux capacitor'],
      longTail: [],
      related: [],
      categories: [],
    });
  });
});

describe('suggest', () => {
  it('puts the surest tags first and drops those that are no plain keyword', async () => {
    const suggestions = await local.suggest({
      tags: [
        { label: 'Sunset', confidence: 0.5 },
        { label: 'lake', confidence: 0.9 },
        { label: '<b>bold</b>', confidence: 1 },
        { label: 'x', confidence: 1 },
      ],
      locale: 'en',
    });
    expect(suggestions).toEqual(['lake', 'sunset']);
  });

  it('finds subjects with their modifiers and names in English text, only words that are not stop words otherwise', async () => {
    expect(
      await local.suggest({ tags: [], text: 'Our red leather boots, shot in Porto. Photos by Ana.', locale: 'en' }),
    ).toEqual(['red leather boots', 'boots', 'porto', 'ana']);
    expect(await local.suggest({ tags: [], text: 'Die roten Stiefel aus Leder', locale: 'de' })).toEqual([
      'roten',
      'stiefel',
      'leder',
    ]);
  });
});

describe('the word lists', () => {
  it('cover a few hundred subjects of shops and photographs, each with related terms and a category', () => {
    const subjects = new Set(englishVocabulary().subjects.values());
    expect(subjects.size).toBeGreaterThan(400);
    const categories = new Set([...subjects].map((subject) => subject.category));
    for (const expected of [
      'kitchen and dining',
      'food',
      'home decor',
      'clothing',
      'landscape',
      'travel',
      'architecture',
    ]) {
      expect(categories).toContain(expected);
    }
    for (const subject of subjects) expect(subject.related.length, subject.term).toBeGreaterThan(0);
  });

  it('give at least three related terms for every subject they know', async () => {
    for (const subject of new Set(englishVocabulary().subjects.values())) {
      expect((await enhance([subject.term])).related.length, subject.term).toBeGreaterThanOrEqual(3);
    }
  });
});
