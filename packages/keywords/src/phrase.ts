import { PREPOSITIONS } from './prepositions';
import { SLOTS, type Slot, type Subject, type Vocabulary } from './vocabulary';

/** Where a modifier of each slot stands before the noun: "handmade blue ceramic garden coffee mug". */
const RANK: Record<Slot, number> = Object.fromEntries(SLOTS.map((slot, index) => [slot, index])) as Record<
  Slot,
  number
>;
/** Words the lists do not know stay next to the noun, as part of its name ("lisbon tram"). */
const UNKNOWN_RANK = SLOTS.length;

export interface ReadPhrase {
  words: readonly string[];
  subject?: Subject;
  /** The subject's words: [headStart, headEnd). */
  headStart: number;
  headEnd: number;
  filled: ReadonlySet<Slot>;
  /** The rank of each word before the head. */
  ranks: readonly number[];
}

/** The longest phrase of the lists starting at `start` that `known` accepts, as its number of words. */
export function longestMatch(
  words: readonly string[],
  start: number,
  end: number,
  longest: number,
  known: (phrase: string) => boolean,
): number {
  for (let length = Math.min(longest, end - start); length > 0; length--) {
    if (known(words.slice(start, start + length).join(' '))) return length;
  }
  return 0;
}

/** The rightmost subject before the first preposition: English puts the head noun last. */
function findHead(words: readonly string[], vocabulary: Vocabulary): { start: number; end: number } | undefined {
  const firstPreposition = words.findIndex((word, index) => index > 0 && PREPOSITIONS.has(word));
  const limit = firstPreposition === -1 ? words.length : firstPreposition;
  for (let end = limit; end > 0; end--) {
    for (let length = Math.min(vocabulary.longestPhrase, end); length > 0; length--) {
      if (vocabulary.subjects.has(words.slice(end - length, end).join(' '))) return { start: end - length, end };
    }
  }
  return undefined;
}

/** A normalised keyword read against the lists: its subject, and which kinds of modifier it already has. */
export function readPhrase(words: readonly string[], vocabulary: Vocabulary): ReadPhrase {
  const head = findHead(words, vocabulary);
  const headStart = head?.start ?? words.length;
  const headEnd = head?.end ?? words.length;
  const filled = new Set<Slot>();
  const ranks: number[] = Array.from({ length: headStart }, () => UNKNOWN_RANK);
  const scan = (start: number, end: number) => {
    for (let index = start; index < end; ) {
      const length = longestMatch(words, index, end, vocabulary.longestPhrase, (phrase) =>
        vocabulary.modifiers.has(phrase),
      );
      if (length === 0) {
        index++;
        continue;
      }
      const slots = vocabulary.modifiers.get(words.slice(index, index + length).join(' '))!;
      for (const slot of slots) filled.add(slot);
      const rank = Math.min(...slots.map((slot) => RANK[slot]));
      for (let word = index; word < index + length && word < headStart; word++) ranks[word] = rank;
      index += length;
    }
  };
  scan(0, headStart);
  scan(headEnd, words.length);
  const subject = head ? vocabulary.subjects.get(words.slice(head.start, head.end).join(' ')) : undefined;
  return { words, ...(subject ? { subject } : {}), headStart, headEnd, filled, ranks };
}

/** A modifier that starts with a preposition follows the phrase ("for coffee lovers"); others precede the noun. */
export function withModifier(phrase: ReadPhrase, modifier: string, slot: Slot): string {
  const modifierWords = modifier.split(' ');
  if (PREPOSITIONS.has(modifierWords[0]!)) return [...phrase.words, ...modifierWords].join(' ');
  const before = phrase.ranks.findIndex((rank) => rank > RANK[slot]);
  const at = before === -1 ? phrase.headStart : before;
  return [...phrase.words.slice(0, at), ...modifierWords, ...phrase.words.slice(at)].join(' ');
}
