import { isStopWord } from '../filename/vocabulary';
import type { Candidate, SignalRole } from './signals';
import { hasRootIn } from './words';

export interface WordLimits {
  maxWords: number;
  maxLength: number;
  locale: string;
}

/** A name is descriptive from three words on; below that, the fall-back signals may speak. */
export const MIN_NAME_WORDS = 3;
/** Two colours say what a frame looks like; more is a palette. */
const MAX_COLOUR_PHRASES = 2;

/**
 * The words of a name, from candidates in rank order: subjects, scene and place first, then at most two
 * colours, then the fall-backs (context, date) only while fewer than three words are known. When nothing but
 * scene and place was said, the colours lead (`orange-purple-sunset-sky`): they describe what is named. After
 * a subject, a frame's colour need not be the subject's, and `mug-dining-table-red` would read as a red
 * table: colours then trail, and only while fewer than three words are known (`cat-black-white`).
 */
export function composeWords(candidates: readonly Candidate[], limits: WordLimits): string[] {
  const words = new NameWords(limits);
  for (const candidate of candidates) {
    if (candidate.role !== 'colour' && candidate.role !== 'fallback') words.add(candidate);
  }
  const leads = !words.holds('subject');
  let colours = 0;
  let colourWords = 0;
  for (const candidate of candidates) {
    if (candidate.role !== 'colour' || colours === MAX_COLOUR_PHRASES) continue;
    if (!leads && words.list.length >= MIN_NAME_WORDS) break;
    const added = words.add(candidate, leads ? colourWords : undefined);
    if (added > 0) colours++;
    colourWords += added;
  }
  for (const candidate of candidates) {
    if (candidate.role === 'fallback' && words.list.length < MIN_NAME_WORDS) words.add(candidate);
  }
  return words.list;
}

/** The words chosen so far, which refuse a repeat (in any form: cup and cups) or a phrase that does not fit. */
export class NameWords {
  readonly list: string[] = [];
  private readonly roles = new Set<SignalRole>();

  constructor(private readonly limits: WordLimits) {}

  holds(role: SignalRole): boolean {
    return this.roles.has(role);
  }

  /**
   * Adds the candidate's whole phrase, or else those of its parts that fit, at `position` (default: the
   * end); the number of words added.
   */
  add(candidate: Candidate, position?: number): number {
    let added = this.addWords(candidate.whole.words, position);
    if (added === 0) {
      for (const part of candidate.parts)
        added += this.addWords(part.words, position === undefined ? undefined : position + added);
    }
    if (added > 0) this.roles.add(candidate.role);
    return added;
  }

  /** The words that `words` would add: repeats (in any form) left out, stop words trimmed from the ends. */
  newWords(words: readonly string[]): string[] {
    const fresh = words.filter((word, index) => {
      const earlier = words.slice(0, index);
      return isStopWord(word, this.limits.locale)
        ? !this.list.includes(word) && !earlier.includes(word)
        : !hasRootIn(word, this.list) && !hasRootIn(word, earlier);
    });
    let start = 0;
    let end = fresh.length;
    while (start < end && isStopWord(fresh[start]!, this.limits.locale)) start++;
    while (end > start && isStopWord(fresh[end - 1]!, this.limits.locale)) end--;
    return fresh.slice(start, end);
  }

  /** Adds the new ones of `words` if they all fit; the number added. */
  addWords(words: readonly string[], position = this.list.length): number {
    const fresh = this.newWords(words);
    const next = [...this.list.slice(0, position), ...fresh, ...this.list.slice(position)];
    if (fresh.length === 0 || next.length > this.limits.maxWords || next.join('-').length > this.limits.maxLength) {
      return 0;
    }
    this.list.splice(0, this.list.length, ...next);
    return fresh.length;
  }
}
