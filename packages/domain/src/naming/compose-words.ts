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
/** One kind of picture: a portrait is not also a close-up. */
const MAX_KIND_PHRASES = 1;

/** The roles that complete a name of fewer than three words, in this order: each is true and more general. */
const COMPLETION_ROLES: readonly SignalRole[] = ['kind', 'light', 'colour', 'fallback'];

/**
 * The words of a name, from candidates in rank order: subjects, scene and place first, then at most two
 * colours. When nothing but scene and place was said, the colours lead (`orange-purple-sunset-sky`): they
 * describe what is named. After a subject, a frame's colour need not be the subject's, and
 * `mug-dining-table-red` would read as a red table: colours then only complete. A name of fewer than three
 * words is completed with words that are also true and more general, in `COMPLETION_ROLES` order: what kind of
 * picture it is (close-up, landscape), its light, its colours, then the batch's context and the date. `taken`
 * holds words the name already has elsewhere (a template's literal text): none is repeated.
 */
export function composeWords(
  candidates: readonly Candidate[],
  limits: WordLimits,
  taken: readonly string[] = [],
): string[] {
  const words = new NameWords(limits, taken);
  for (const candidate of candidates) {
    if (!COMPLETION_ROLES.includes(candidate.role)) words.add(candidate);
  }
  let colours = 0;
  if (!words.holds('subject')) {
    let colourWords = 0;
    for (const candidate of candidates) {
      if (candidate.role !== 'colour' || colours === MAX_COLOUR_PHRASES) continue;
      const added = words.add(candidate, colourWords);
      if (added > 0) colours++;
      colourWords += added;
    }
  }
  let kinds = 0;
  for (const role of COMPLETION_ROLES) {
    for (const candidate of candidates) {
      if (words.list.length >= MIN_NAME_WORDS) return words.list;
      if (candidate.role !== role) continue;
      if ((role === 'colour' && colours === MAX_COLOUR_PHRASES) || (role === 'kind' && kinds === MAX_KIND_PHRASES)) {
        continue;
      }
      if (words.add(candidate) === 0) continue;
      if (role === 'colour') colours++;
      if (role === 'kind') kinds++;
    }
  }
  return words.list;
}

/** The words chosen so far, which refuse a repeat (in any form: cup and cups) or a phrase that does not fit. */
export class NameWords {
  readonly list: string[] = [];
  private readonly roles = new Set<SignalRole>();

  /** `taken`: words that stand elsewhere in the name, which this list neither repeats nor counts. */
  constructor(
    private readonly limits: WordLimits,
    private readonly taken: readonly string[] = [],
  ) {}

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
      // A stop word is not repeated either, the template's words included: the filename rules would drop the
      // repeat, and the name would then no longer be shaped like its words.
      return isStopWord(word, this.limits.locale)
        ? !this.list.includes(word) && !earlier.includes(word) && !this.taken.includes(word)
        : !hasRootIn(word, this.list) && !hasRootIn(word, earlier) && !hasRootIn(word, this.taken);
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
