import type { EnhancedKeywords } from '@renamer/contracts';
import { isAnswerable } from './keyword-check';
import { normalizeKeyword, unique, wordsOf } from './normalize';
import { type ReadPhrase, readPhrase, withModifier } from './phrase';
import { SLOTS, type Vocabulary } from './vocabulary';

const MAX_LONG_TAIL = 20;
const MAX_RELATED = 20;
const MAX_CATEGORIES = 10;

/** Takes one item of each list in turn, so that every keyword gets its share before any gets a second. */
function interleave(lists: readonly (readonly string[])[]): string[] {
  const longest = Math.max(0, ...lists.map((list) => list.length));
  const out: string[] = [];
  for (let index = 0; index < longest; index++)
    for (const list of lists) if (index < list.length) out.push(list[index]!);
  return out;
}

/** A modifier the person's context mentions comes before the others of its slot. */
function mentionedFirst(modifiers: readonly string[], context: string): string[] {
  const mentioned = (modifier: string) => context.includes(` ${modifier} `);
  return [...modifiers.filter(mentioned), ...modifiers.filter((modifier) => !mentioned(modifier))];
}

/**
 * The keyword with one more modifier of each kind it lacks, the first of each kind, then the second…: "handmade
 * ceramic mug" gives "handmade blue ceramic mug", "handmade ceramic coffee mug", "handmade ceramic mug for gifting".
 */
function longTailOf(phrase: ReadPhrase, context: string): string[] {
  const { subject } = phrase;
  if (!subject) return [];
  const own = new Set(phrase.words);
  const perSlot = SLOTS.filter((slot) => !phrase.filled.has(slot)).map((slot) =>
    mentionedFirst(subject.modifiers[slot], context)
      .filter((modifier) => !modifier.split(' ').some((word) => own.has(word)))
      .map((modifier) => withModifier(phrase, modifier, slot)),
  );
  return interleave(perSlot);
}

/** Long-tail phrases, related terms and categories from the curated lists; keywords they do not know get none. */
export function enhanceKeywords(
  keywords: readonly string[],
  context: string | undefined,
  locale: string,
  vocabulary: Vocabulary,
): EnhancedKeywords {
  const phrases = keywords.map((keyword) => readPhrase(keyword.split(' '), vocabulary));
  const contextText = ` ${wordsOf(normalizeKeyword(context ?? '', locale)).join(' ')} `;
  const given = new Set(keywords);
  const longTail = unique(interleave(phrases.map((phrase) => longTailOf(phrase, contextText))))
    .filter((candidate) => !given.has(candidate) && isAnswerable(candidate))
    .slice(0, MAX_LONG_TAIL);
  const heads = new Set(phrases.map((phrase) => phrase.subject));
  // "roses" is no term related to "red roses": it is the same subject. A term outside the lists is no subject at
  // all, whatever an unknown keyword ("ceramic", no subject either) beside it.
  const isHead = (term: string) => {
    const subject = vocabulary.subjects.get(term);
    return subject !== undefined && heads.has(subject);
  };
  const related = unique(interleave(phrases.map((phrase) => phrase.subject?.related ?? [])))
    .filter((term) => !given.has(term) && !isHead(term))
    .slice(0, MAX_RELATED);
  const categories = new Map<string, string[]>();
  phrases.forEach((phrase, index) => {
    if (!phrase.subject) return;
    const { category } = phrase.subject;
    categories.set(category, [...(categories.get(category) ?? []), keywords[index]!]);
  });
  return {
    keywords: [...keywords],
    longTail,
    related,
    categories: [...categories]
      .slice(0, MAX_CATEGORIES)
      .map(([category, members]) => ({ category, keywords: members })),
  };
}
