import type { FixturePhoto } from './fixture-photos';

/**
 * How the words proposed for a fixture photograph compare with what a person wrote down for it. Each proposed entry
 * (a word or a phrase, as given) lands in exactly one list, or in none when it holds no word to judge (empty, only
 * digits such as a `-2` suffix, or only connecting words such as "on" or "the").
 */
export interface WordJudgement {
  /** In `shows`: plainly true of the picture. */
  correct: string[];
  /** In `acceptable`: not wrong, not central. */
  neutral: string[];
  /** In neither list: counts as a wrong word. */
  wrong: string[];
}

/** Words that join a phrase ("dogs at window") and say nothing about the picture by themselves. */
const CONNECTING_WORDS = new Set([
  'a',
  'an',
  'the',
  'and',
  'of',
  'on',
  'in',
  'at',
  'by',
  'with',
  'to',
  'from',
  'for',
  'into',
  'onto',
  'over',
  'under',
  'above',
  'below',
  'behind',
  'beside',
  'between',
  'near',
]);

/**
 * The last words a name is completed with when nothing else is known (the frame's shape, the month it was taken or
 * uploaded: `horizontal-format-june-2024`): true of the file whatever it shows, so never wrong, never a subject.
 */
const TRUE_OF_ANY_PICTURE = new Set([
  'horizontal',
  'vertical',
  'square',
  'format',
  ...'january february march april may june july august september october november december'.split(' '),
]);

const IRREGULAR_SINGULARS: Record<string, string> = {
  people: 'person',
  men: 'man',
  women: 'woman',
  children: 'child',
  mice: 'mouse',
  geese: 'goose',
  teeth: 'tooth',
  feet: 'foot',
};

/**
 * Judges each proposed entry against the photograph's lists. An entry matches a list entry when, word by word, the
 * words are equal or one is a plural of the other (`cups` ~ `cup`, `leaves` ~ `leaf`, `berries` ~ `berry`); case,
 * hyphens and underscores do not matter (`forget-me-not` ~ `forget me not`).
 *
 * - A phrase is also judged word by word, connecting words and numbers left out: wrong when any of its words is
 *   wrong, else correct when any is correct, else neutral. So `red ceramic cup` is wrong for a photograph whose lists
 *   hold `red` and `cup` but not `ceramic`: one wrong word in a filename is a wrong filename word.
 * - An entry is correct when it equals an entry of `shows` or is correct word by word; otherwise neutral when it
 *   equals an entry of `acceptable` (`suspension bridge`, though `suspension` alone is not listed); otherwise its
 *   word-by-word verdict.
 */
export function judgeWords(photo: Pick<FixturePhoto, 'shows' | 'acceptable'>, words: readonly string[]): WordJudgement {
  const shows = photo.shows.map(toWords);
  const acceptable = photo.acceptable.map(toWords);
  const judgement: WordJudgement = { correct: [], neutral: [], wrong: [] };
  for (const entry of words) {
    const entryWords = toWords(entry);
    const verdict =
      entryWords.length > 0 && entryWords.every((word) => TRUE_OF_ANY_PICTURE.has(word))
        ? 'neutral'
        : judgeEntry(entryWords, shows, acceptable);
    if (verdict) judgement[verdict].push(entry);
  }
  return judgement;
}

/**
 * A filename's words, which come one by one: consecutive words that together spell a phrase of either list are
 * judged as that phrase (`golden`, `hour` as `golden hour`), the longest first; the others as `judgeWords` does.
 */
export function judgeFilenameWords(
  photo: Pick<FixturePhoto, 'shows' | 'acceptable'>,
  words: readonly string[],
): WordJudgement {
  return judgeWords(photo, joinListedPhrases(words, [...photo.shows, ...photo.acceptable].map(toWords)));
}

type Verdict = keyof WordJudgement;

function joinListedPhrases(words: readonly string[], listed: readonly string[][]): string[] {
  const phrases = listed.filter((phrase) => phrase.length > 1).sort((a, b) => b.length - a.length);
  const entries: string[] = [];
  for (let index = 0; index < words.length; ) {
    const phrase = phrases.find((candidate) =>
      samePhrase(words.slice(index, index + candidate.length).flatMap(toWords), candidate),
    );
    const length =
      phrase && words.slice(index, index + phrase.length).every((word) => toWords(word).length === 1)
        ? phrase.length
        : 1;
    entries.push(words.slice(index, index + length).join(' '));
    index += length;
  }
  return entries;
}

function judgeEntry(entry: string[], shows: string[][], acceptable: string[][]): Verdict | undefined {
  const whole = judgePhrase(entry, shows, acceptable);
  const meaningful = entry.filter((word) => !CONNECTING_WORDS.has(word) && !/^\d+$/.test(word));
  if (meaningful.length === 0) return whole;
  const verdicts = meaningful.map((word) => judgePhrase([word], shows, acceptable) ?? 'wrong');
  const byWord: Verdict = verdicts.includes('wrong') ? 'wrong' : verdicts.includes('correct') ? 'correct' : 'neutral';
  if (whole === 'correct' || byWord === 'correct') return 'correct';
  return whole ?? byWord;
}

function judgePhrase(phrase: string[], shows: string[][], acceptable: string[][]): Verdict | undefined {
  if (shows.some((listed) => samePhrase(phrase, listed))) return 'correct';
  if (acceptable.some((listed) => samePhrase(phrase, listed))) return 'neutral';
  return undefined;
}

function toWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[\s_-]+/)
    .filter((word) => word !== '');
}

function samePhrase(a: string[], b: string[]): boolean {
  return a.length > 0 && a.length === b.length && a.every((word, index) => sameWord(word, b[index]!));
}

function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const formsOfB = singularForms(b);
  return [...singularForms(a)].some((form) => formsOfB.has(form));
}

/** The word itself and every singular it could be the plural of; wrong guesses ("bus" → "bu") match nothing. */
function singularForms(word: string): Set<string> {
  const forms = new Set([word]);
  const irregular = IRREGULAR_SINGULARS[word];
  if (irregular) forms.add(irregular);
  if (word.length > 3 && word.endsWith('ies')) forms.add(`${word.slice(0, -3)}y`);
  if (word.length > 3 && word.endsWith('ves')) {
    forms.add(`${word.slice(0, -3)}f`);
    forms.add(`${word.slice(0, -3)}fe`);
  }
  if (word.length > 3 && word.endsWith('es')) forms.add(word.slice(0, -2));
  if (word.length > 2 && word.endsWith('s') && !word.endsWith('ss')) forms.add(word.slice(0, -1));
  return forms;
}

/**
 * Words that are true of a picture without naming anything in it: the colours of the frame, the light, the kind of
 * picture. A name made of these alone does not name a visible subject, however right its words are.
 */
export const NOT_SUBJECT_WORDS: ReadonlySet<string> = new Set([
  // colours
  'red',
  'orange',
  'brown',
  'yellow',
  'green',
  'teal',
  'turquoise',
  'blue',
  'purple',
  'violet',
  'pink',
  'grey',
  'gray',
  'white',
  'black',
  'beige',
  'tan',
  'gold',
  'golden',
  'silver',
  'black and white',
  'monochrome',
  // light
  'light',
  'golden hour',
  'low light',
  'backlit',
  'bright',
  'soft light',
  'high contrast',
  'sunlight',
  'daylight',
  'dark',
  // what kind of picture
  'close-up',
  'portrait',
  'landscape',
  'aerial view',
  'street scene',
  'night scene',
  'still life',
  'macro',
]);

/** The words that say a person is in the picture: each one wrong when no person is there. */
const PERSON_WORDS = new Set(['person', 'people', 'man', 'woman', 'men', 'women', 'boy', 'girl', 'child', 'children']);

export interface SubjectJudgement {
  /** Entries naming something the picture shows (a `shows` word that is not a colour, light or kind of picture). */
  visible: string[];
  /** Entries naming the picture's main subject (a `subjects` word). */
  main: string[];
  /** Wrong entries that name an object the detector knows or a person: the costliest mistakes. */
  wrongObjects: string[];
}

/**
 * Whether a filename's words name a visible subject of the photograph, and its main subject; consecutive words
 * that spell a listed phrase are judged as that phrase, as `judgeFilenameWords` does. `objectWords` are the labels
 * a detector may say (the COCO classes it returns): a wrong one of those, or a wrong person word, is a wrong object.
 */
export function judgeSubjects(
  photo: Pick<FixturePhoto, 'shows' | 'subjects' | 'acceptable'>,
  words: readonly string[],
  objectWords: Iterable<string> = [],
): SubjectJudgement {
  const listed = [...photo.shows, ...photo.acceptable].map(toWords);
  const entries = joinListedPhrases(words, listed);
  const visibleList = photo.shows.filter((word) => !NOT_SUBJECT_WORDS.has(word)).map(toWords);
  const mainList = photo.subjects.map(toWords);
  const objects = new Set([...objectWords].map((word) => toWords(word).join(' ')));
  const names = (entry: string, list: string[][]) => {
    const entryWords = toWords(entry);
    if (list.some((listedPhrase) => samePhrase(entryWords, listedPhrase))) return true;
    return entryWords.some((word) => list.some((listedPhrase) => samePhrase([word], listedPhrase)));
  };
  const wrong = new Set(judgeWords(photo, entries).wrong);
  const isObjectWord = (entry: string) => {
    const entryWords = toWords(entry);
    return (
      objects.has(entryWords.join(' ')) ||
      entryWords.some((word) => [...singularForms(word)].some((form) => PERSON_WORDS.has(form) || objects.has(form)))
    );
  };
  return {
    visible: entries.filter((entry) => names(entry, visibleList)),
    main: entries.filter((entry) => names(entry, mainList)),
    wrongObjects: entries.filter((entry) => wrong.has(entry) && isObjectWord(entry)),
  };
}
