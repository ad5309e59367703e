import { DATE_TAG_MONTHS, SEO_RULES, type SeoRule, type SeoScore, type VisionTag } from '@renamer/contracts';
import { englishWords } from '../filename/english-words';
import { DEFAULT_PROPOSAL_WORDS, isNumber, MAX_STEM_LENGTH, withoutTypedExtensions } from '../filename/filename-rules';
import { languageOf, toAsciiWords } from '../filename/transliterate';
import { isGenericWord, isStopWord } from '../filename/vocabulary';
import { MIN_NAME_WORDS } from './compose-words';
import { FRAME_SHAPES, FRAME_WORD } from './image-facts';
import { hasRootIn, sameRoot } from './words';

/**
 * Points per rule, summing to 100, after Google's image SEO guidance: a filename gives search engines light
 * clues about the picture, so what it says weighs most. Saying what the picture shows (descriptive) and not
 * filling the name with camera words come first; a name that contradicts what was seen misleads, so agreeing
 * with the tags follows. The person's keyword is what they want to be found for. The form rules (short,
 * hyphens, lowercase) are easy to meet and matter less; repeating a word is keyword stuffing, which Google
 * advises against.
 */
export const SEO_WEIGHTS: Readonly<Record<SeoRule, number>> = {
  descriptive: 25,
  no_generic_words: 15,
  consistent_with_tags: 15,
  keyword_present: 10,
  concise: 10,
  hyphenated: 10,
  no_repeated_words: 10,
  lowercase: 5,
};

export interface ScoreOptions {
  /** The image's tags; those of source `keywords` are the person's keywords the name should hold. */
  tags: readonly VisionTag[];
  locale: string;
  /**
   * Words a naming template or a `-2` suffix put in the name (`acme`, `001`): the person chose them, so they are
   * neither judged generic nor held against the tags, and the word count is the subject's.
   */
  fixedWords?: readonly string[];
}

/** The person's keywords among the tags: one source for every score, whoever asks for it. */
function keywordsOf(tags: readonly VisionTag[]): string[] {
  return tags.filter((tag) => tag.source === 'keywords').map((tag) => tag.label);
}

const HYPHENATED = /^[a-z0-9]+(?:-[a-z0-9]+)*$/i;
const YEAR = /^(?:19|20)\d\d$/;

/**
 * The score of a filename (a proposal, or a name exactly as a person typed it): the points of each rule it
 * passes, with a reason per rule in `SEO_RULES` order. Deterministic.
 */
export function scoreFilename(filename: string, options: ScoreOptions): SeoScore {
  const { locale } = options;
  const stem = withoutTypedExtensions(filename);
  const words = toAsciiWords(stem, locale);
  const fixed = new Set(options.fixedWords ?? []);
  const judged = words.filter((word) => !fixed.has(word));
  const isMeaningful = (word: string) => !isStopWord(word, locale) && !isCameraWord(word, locale);
  const meaningful = judged.filter(isMeaningful);
  const checks: Record<SeoRule, { passed: boolean; detail: string }> = {
    descriptive: descriptive(meaningful, options),
    concise: concise(words, judged.length),
    hyphenated: HYPHENATED.test(stem)
      ? { passed: true, detail: 'Words are joined by single hyphens.' }
      : { passed: false, detail: 'Join words with single hyphens: no spaces, underscores or other signs.' },
    lowercase: /\p{Lu}/u.test(stem)
      ? { passed: false, detail: 'Write the name in lowercase: web addresses are case-sensitive.' }
      : { passed: true, detail: 'The name is lowercase.' },
    no_generic_words: noGenericWords(judged, locale),
    no_repeated_words: noRepeatedWords(words, locale),
    keyword_present: keywordPresent(words.filter(isMeaningful), keywordsOf(options.tags), locale),
    consistent_with_tags: consistentWithTags(meaningful, options),
  };
  const reasons = SEO_RULES.map((rule) => ({ rule, ...checks[rule] }));
  const score = reasons.reduce((sum, reason) => sum + (reason.passed ? SEO_WEIGHTS[reason.rule] : 0), 0);
  return { score, reasons };
}

/** A camera or generic word (img, dsc01234, photo); a year is a date, not a camera counter. */
function isCameraWord(word: string, locale: string): boolean {
  return isGenericWord(word, locale) && !YEAR.test(word);
}

function list(words: readonly string[]): string {
  return words.join(', ');
}

/**
 * Descriptive: at least three words say what the picture shows. A date (a month, a year) says when and a place's
 * name says where: true, and welcome in a name, but a name of a date and a place alone needs a person's words.
 */
function descriptive(meaningful: readonly string[], { tags, locale }: ScoreOptions) {
  const placeWords = new Set(
    tags.filter((tag) => tag.source === 'place').flatMap((tag) => toAsciiWords(tag.label, locale)),
  );
  const whenOrWhere = meaningful.filter(
    (word) => YEAR.test(word) || (DATE_TAG_MONTHS as readonly string[]).includes(word) || placeWords.has(word),
  );
  const frame = frameWordsIn(meaningful);
  const said = meaningful.filter((word) => !whenOrWhere.includes(word) && !frame.includes(word));
  const unknown = unknownWords(said, tags, locale);
  const what = said.filter((word) => !unknown.includes(word));
  if (what.length >= MIN_NAME_WORDS)
    return { passed: true, detail: `${what.length} words say what the picture shows.` };
  const besides = [
    whenOrWhere.length > 0 ? `${list(whenOrWhere)} say when or where` : '',
    frame.length > 0 ? `${list(frame)} only the frame's shape` : '',
    unknown.length > 0 ? `no dictionary or tag knows ${list(unknown)}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  return {
    passed: false,
    detail:
      `${saying(what)} what the picture shows${besides ? ` (${besides})` : ''}: use ${MIN_NAME_WORDS} to ${DEFAULT_PROPOSAL_WORDS} words. ` +
      'Keywords or a context for the batch, or a vision model, give the analyser more to say.',
  };
}

/**
 * In a name made mostly of words no English dictionary holds and no tag but the uploaded name says
 * (`coldripple-skarv-fjell`), those words: they may be a brand or a place the person knows, but nothing tells what
 * they show. One such word among known ones (`lighthouse-at-dusk-brittany`) is taken on trust. Only English names
 * are checked: there is no dictionary of the other locales here.
 */
function unknownWords(what: readonly string[], tags: readonly VisionTag[], locale: string): string[] {
  if (languageOf(locale) !== 'en') return [];
  const vocabulary = new Set(described(tags).flatMap((tag) => toAsciiWords(tag.label, locale)));
  const unknown = what.filter((word) => /[a-z]/.test(word) && !vocabulary.has(word) && !englishWords().has(word));
  return unknown.length * 2 > what.length ? unknown : [];
}

/** The tags that say something of the picture besides its uploaded name (which is what a score judges). */
function described(tags: readonly VisionTag[]): VisionTag[] {
  return tags.filter((tag) => tag.source !== 'camera' && tag.source !== 'filename');
}

/** `horizontal format` and the like, which a name is completed with when nothing else is known. */
function frameWordsIn(words: readonly string[]): string[] {
  return words.flatMap((word, index) =>
    word === FRAME_WORD && index > 0 && (FRAME_SHAPES as readonly string[]).includes(words[index - 1]!)
      ? [words[index - 1]!, word]
      : [],
  );
}

function saying(meaningful: readonly string[]): string {
  if (meaningful.length === 0) return 'No word says';
  if (meaningful.length === 1) return `Only one word (${meaningful[0]}) says`;
  return `Only ${meaningful.length} words (${list(meaningful)}) say`;
}

/** At most six words, a template's own not counted (`counted`), and at most 60 characters in all. */
function concise(words: readonly string[], counted: number) {
  const length = words.join('-').length;
  if (counted > DEFAULT_PROPOSAL_WORDS) {
    return { passed: false, detail: `${counted} words: keep to ${DEFAULT_PROPOSAL_WORDS} at most.` };
  }
  if (length > MAX_STEM_LENGTH) {
    return { passed: false, detail: `${length} characters: keep to ${MAX_STEM_LENGTH} at most.` };
  }
  return { passed: true, detail: `${words.length} words, ${length} characters.` };
}

function noGenericWords(words: readonly string[], locale: string) {
  const generic = words.filter((word) => isCameraWord(word, locale));
  return generic.length === 0
    ? { passed: true, detail: 'No generic or camera words.' }
    : { passed: false, detail: `Generic or camera words say nothing about the picture: ${list(generic)}.` };
}

function noRepeatedWords(words: readonly string[], locale: string) {
  const content = words.filter((word) => !isStopWord(word, locale) && !isNumber(word));
  const repeated = content.filter((word, index) => hasRootIn(word, content.slice(0, index)));
  return repeated.length === 0
    ? { passed: true, detail: 'No word is repeated.' }
    : { passed: false, detail: `Repeated: ${list(repeated)}.` };
}

function keywordPresent(meaningful: readonly string[], keywords: readonly string[], locale: string) {
  if (keywords.length === 0) return { passed: true, detail: 'No keywords were given.' };
  const present = keywords.find((keyword) => {
    const wanted = toAsciiWords(keyword, locale).filter((word) => !isStopWord(word, locale));
    return wanted.length > 0 && wanted.every((word) => hasRootIn(word, meaningful));
  });
  return present === undefined
    ? { passed: false, detail: `None of the keywords is in the name: ${keywords.join(', ')}.` }
    : { passed: true, detail: `Holds the keyword "${present}".` };
}

/**
 * Whether the name agrees with what the analysis and the person said (not with the uploaded name alone: a name
 * kept from `wall-art-landscape-print.jpg` for a picture of paintbrushes disagrees with it).
 */
function consistentWithTags(meaningful: readonly string[], { tags, locale }: ScoreOptions) {
  const known = described(tags)
    .map((tag) => tag.label)
    .flatMap((label) => toAsciiWords(label, locale));
  if (known.length === 0) return { passed: true, detail: 'No tags to compare the name with.' };
  if (meaningful.length === 0) return { passed: false, detail: 'No word of the name can be compared with the tags.' };
  const unsupported = meaningful.filter((word) => !known.some((tagWord) => sameRoot(word, tagWord)));
  // Half the words may be the person's own (a product or brand name): more than that contradicts the tags.
  return unsupported.length * 2 <= meaningful.length
    ? {
        passed: true,
        detail:
          unsupported.length === 0
            ? 'Every word agrees with the tags.'
            : `Agrees with the tags; not among them: ${list(unsupported)}.`,
      }
    : { passed: false, detail: `Most words are not among the tags: ${list(unsupported)}.` };
}
