import type { ImageFormat, SeoScore, VisionTag } from '@renamer/contracts';
import {
  DEFAULT_PROPOSAL_WORDS,
  type FilenameRejection,
  isNumber,
  MAX_STEM_LENGTH,
  normalizeFilename,
} from '../filename/filename-rules';
import { isStopWord } from '../filename/vocabulary';
import { isCameraMadeFilename } from './camera-filename';
import { composeWords, MIN_NAME_WORDS, NameWords, type WordLimits } from './compose-words';
import { frameWords, type ImageFacts, whenWords } from './image-facts';
import { fittedStem, fixedWordsOf, type NameShape, plainShape, reshaped } from './name-shape';
import { scoreFilename } from './seo-score';
import { type Candidate, rankedCandidates } from './signals';
import { fixedWords, type NamingTemplate } from './template';

export interface NameOptions {
  format: ImageFormat;
  locale: string;
  /** At most this many words (default and upper bound: 6). */
  maxWords?: number;
  /** What is known of the image besides its tags: a template's tokens and a name's last words. */
  facts?: ImageFacts;
  /** A parsed naming template; none means `{subject}`. */
  template?: NamingTemplate | null;
}

export type NameProposal =
  | { ok: true; filename: string; stem: string; words: string[]; seo: SeoScore; shape: NameShape }
  | { ok: false; reason: FilenameRejection };

/** `maxWords` as a whole number from 1 to 6; anything else (missing, NaN) means 6. */
function wordLimit(maxWords: number | undefined): number {
  const asked = maxWords !== undefined && Number.isFinite(maxWords) ? Math.floor(maxWords) : DEFAULT_PROPOSAL_WORDS;
  return Math.max(1, Math.min(DEFAULT_PROPOSAL_WORDS, asked));
}

/**
 * The name the tags deserve: up to six words from the ranked signals (see `NAME_SIGNALS` and `composeWords`),
 * completed to three with the frame's shape and the month when nothing else is known, through the template
 * and the filename rules, with its SEO score. A rejection says why no name could be made (`empty` when no tag
 * and no fact says anything a name may hold).
 */
export function proposeName(tags: readonly VisionTag[], options: NameOptions): NameProposal {
  return shapedProposal(rankedCandidates(tags, options.locale), null, tags, options);
}

/**
 * The proposal for subject words already chosen (`chosen`, as a batch's naming gives them) or else composed from
 * the candidates, in the template's shape. A template whose words leave no room, or give a name the rules refuse
 * for this image (only generic words, a camera's name), yields to the name without it: a name is always made.
 */
export function shapedProposal(
  candidates: readonly Candidate[],
  chosen: readonly string[] | null,
  tags: readonly VisionTag[],
  options: NameOptions,
): NameProposal {
  const limits: WordLimits = {
    maxWords: wordLimit(options.maxWords),
    maxLength: MAX_STEM_LENGTH,
    locale: options.locale,
  };
  if (options.template) {
    const templated = templatedProposal(candidates, chosen, tags, options, options.template, limits);
    if (templated?.ok) return templated;
  }
  const subject = completedWords(candidates, limits, options.facts, [], chosen);
  return shapedFrom(plainShape(subject), tags, options);
}

function templatedProposal(
  candidates: readonly Candidate[],
  chosen: readonly string[] | null,
  tags: readonly VisionTag[],
  options: NameOptions,
  template: NamingTemplate,
  limits: WordLimits,
): NameProposal | null {
  const { locale, format, facts = { originalFilename: '' } } = options;
  const keywords = tags.filter((tag) => tag.source === 'keywords').map((tag) => tag.label);
  const place = tags.find((tag) => tag.source === 'place')?.label ?? null;
  const hasSubject = template.parts.some((part) => part.kind === 'subject');
  const fixed = fixedWords(template, { facts, keywords, place, locale, format });
  const { before, after } = tidied(fixed, hasSubject, locale);
  // Composed as if alone; the shape then cuts it from its end, never below three words, to make room.
  const subject = hasSubject ? completedWords(candidates, limits, facts, [...before, ...after], chosen) : [];
  if (hasSubject && subject.length < MIN_NAME_WORDS) return null;
  const shape: NameShape = { before, subject, after, maxParts: Number.POSITIVE_INFINITY };
  const proposal = shapedFrom(shape, tags, options);
  if (!proposal.ok) return proposal;
  // The rules took the subject below three words, or the template's words apart from it: the template yields.
  if (hasSubject && proposal.shape.subject.length < MIN_NAME_WORDS) return null;
  if (fixedWordsOf(proposal.shape).length === 0 && before.length + after.length > 0) return null;
  return isCameraMadeFilename(proposal.filename) ? null : proposal;
}

/**
 * The subject's words: `chosen` (a batch's naming gives them) or else `composeWords`; while fewer than three
 * are known, the candidates' other words, then the frame's shape (`horizontal format`) and the month the
 * picture was taken or uploaded: true of any picture, so a name never falls back to a camera's.
 */
function completedWords(
  candidates: readonly Candidate[],
  limits: WordLimits,
  facts: ImageFacts | undefined,
  taken: readonly string[],
  chosen: readonly string[] | null,
): string[] {
  const words = new NameWords(limits, taken);
  const composed = composeWords(candidates, limits, taken);
  const initial = chosen ?? composed;
  if (words.addWords(initial) === 0) for (const word of initial) words.addWords([word]);
  for (const word of composed) if (words.list.length < MIN_NAME_WORDS) words.addWords([word]);
  for (const last of facts ? [frameWords(facts), whenWords(facts)] : []) {
    if (words.list.length < MIN_NAME_WORDS && last) words.addWords(last);
  }
  return words.list;
}

/** `words` as a proposal without a template, once the filename rules have passed them. */
export function namedFrom(words: readonly string[], tags: readonly VisionTag[], options: NameOptions): NameProposal {
  return shapedFrom(plainShape(words), tags, options);
}

/** The shape's name as it stands (its subject cut only to fit), through the filename rules, with its score. */
export function shapedFrom(shape: NameShape, tags: readonly VisionTag[], options: NameOptions): NameProposal {
  const words = fittedStem(shape);
  if (words === null) return { ok: false, reason: 'too_long' };
  const named = normalizeFilename(words.join('-'), options);
  if (!named.ok) return named;
  // Whatever the rules still dropped, the shape is the name as it stands: a -2 is then added to that name.
  const kept = named.stem === words.join('-') ? shape : reshaped(shape, named.stem.split('-'));
  const seo = scoreFilename(named.filename, { tags, locale: options.locale, fixedWords: fixedWordsOf(kept) });
  return { ...named, words: named.stem.split('-'), seo, shape: kept };
}

/**
 * A template's words as the filename rules keep them: each once (a number may repeat), and no stop word at the
 * name's ends (`the-{subject}` starts with the subject).
 */
function tidied({ before, after }: { before: string[]; after: string[] }, hasSubject: boolean, locale: string) {
  const seen = new Set<string>();
  const once = (word: string) => {
    if (isNumber(word)) return true;
    if (seen.has(word)) return false;
    seen.add(word);
    return true;
  };
  const trimmed = (words: string[], atStart: boolean, atEnd: boolean) => {
    let [start, end] = [0, words.length];
    while (atStart && start < end && isStopWord(words[start]!, locale)) start++;
    while (atEnd && end > start && isStopWord(words[end - 1]!, locale)) end--;
    return words.slice(start, end);
  };
  const [first, second] = [before.filter(once), after.filter(once)];
  // Without a subject between them, the two lists are one run of words.
  if (!hasSubject) return { before: trimmed([...first, ...second], true, true), after: [] };
  return { before: trimmed(first, true, false), after: trimmed(second, false, true) };
}
