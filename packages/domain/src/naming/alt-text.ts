import type { VisionTag } from '@renamer/contracts';
import { toAsciiWords } from '../filename/transliterate';
import { frameWords, type ImageFacts, whenWords } from './image-facts';
import { type Candidate, passesThreshold, rankedCandidates } from './signals';
import { hasRootIn } from './words';

export interface AltTextOptions {
  /** The words of the image's filename: the alt text must say more than they do. */
  filenameWords: readonly string[];
  locale: string;
  /** When no tag says anything, the frame's shape and date still make a sentence. */
  facts?: ImageFacts;
}

/** What screen readers read comfortably in one go, and the usual advice for alt text. */
export const MAX_ALT_TEXT_LENGTH = 125;
/** Screen readers already announce an image; alt text that says so wastes the listener's time. */
export const ALT_TEXT_FORBIDDEN_PHRASES = ['image of', 'picture of', 'photo of', 'photograph of'] as const;
const ANNOUNCES_AN_IMAGE = /\b(?:image|picture|photo|photograph)\s+of\b/gi;
/** The same words anywhere, even inside others (`telephoto offer`): such a text is not used at all. */
const HOLDS_A_FORBIDDEN_PHRASE = /(?:image|picture|photo|photograph)\s+of/i;
const MAX_SUBJECTS = 3;
const MAX_SCENES = 2;
const MAX_COLOURS = 2;

/**
 * One plain English sentence of at most 125 characters from the tags that may reach a name: the file's own
 * description when it is one short sentence; otherwise the subjects, then (while it fits) the scene, the
 * text in the picture, the colours and the nearest place, e.g. `Ceramic mug and dining table in red and white
 * tones.` Never says "image of" or the like, and never only repeats the filename. Null when nothing honest
 * can be said.
 */
export function altText(tags: readonly VisionTag[], options: AltTextOptions): string | null {
  const described = descriptionSentence(tags);
  const sentence = described && isUsable(described, options) ? described : composedSentence(tags, options);
  if (sentence && isUsable(sentence, options)) return sentence;
  return options.facts ? frameSentence(options.facts) : null;
}

/** `A horizontal picture from November 2026.`: true of the file when nothing is known of what it shows. */
function frameSentence(facts: ImageFacts): string | null {
  const frame = frameWords(facts);
  const when = whenWords(facts);
  if (!frame && !when) return null;
  const shape = frame ? `${frame[0]} ` : '';
  const date = when ? ` from ${capitalisedWords(when.join(' '))}` : '';
  return asSentence(`${/^[aeiou]/.test(shape) ? 'An' : 'A'} ${shape}picture${date}`);
}

function isUsable(sentence: string, { filenameWords, locale }: AltTextOptions): boolean {
  return (
    sentence.length <= MAX_ALT_TEXT_LENGTH &&
    !HOLDS_A_FORBIDDEN_PHRASE.test(sentence) &&
    toAsciiWords(sentence, locale).join(' ') !== filenameWords.join(' ')
  );
}

/** Text without the words that announce an image, on one line, without anything but letters and plain signs. */
function cleaned(text: string): string {
  let previous: string;
  let current = text.replace(/[^\p{L}\p{N}\s'’,.;:!?&()-]/gu, ' ');
  do {
    previous = current;
    current = current.replace(ANNOUNCES_AN_IMAGE, ' ');
  } while (current !== previous);
  return current
    .replace(/\s+/g, ' ')
    .replace(/\s+([,.;:!?])/g, '$1')
    .trim();
}

function asSentence(text: string): string {
  const trimmed = text.replace(/^[\s,.;:!?-]+/, '').replace(/[\s,;:-]+$/, '');
  if (trimmed.length === 0) return '';
  const capitalised = trimmed[0]!.toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}

/** The photographer's description, if its first sentence is short enough to be alt text as it stands. */
function descriptionSentence(tags: readonly VisionTag[]): string | null {
  const description = tags.find((tag) => tag.source === 'description' && passesThreshold(tag));
  if (!description) return null;
  const [first = ''] = cleaned(description.label).split(/(?<=[.!?])\s/);
  const sentence = asSentence(first);
  return /\p{L}/u.test(sentence) ? sentence : null;
}

function joined(phrases: readonly string[]): string {
  if (phrases.length <= 1) return phrases.join('');
  return `${phrases.slice(0, -1).join(', ')} and ${phrases.at(-1)}`;
}

function capitalisedWords(text: string): string {
  return text.replace(/(^|\s)(\p{Ll})/gu, (_, space: string, letter: string) => space + letter.toUpperCase());
}

/** The display text of candidates of one kind, each saying something the earlier ones did not. */
function phrasesOf(candidates: readonly Candidate[], pick: (candidate: Candidate) => boolean, limit: number): string[] {
  const said: string[] = [];
  const phrases: string[] = [];
  for (const candidate of candidates) {
    if (phrases.length === limit || !pick(candidate)) continue;
    const text = cleaned(candidate.whole.text);
    const words = candidate.whole.words;
    if (text.length === 0 || HOLDS_A_FORBIDDEN_PHRASE.test(text) || words.every((word) => hasRootIn(word, said))) {
      continue;
    }
    said.push(...words);
    phrases.push(text);
  }
  return phrases;
}

function composedSentence(tags: readonly VisionTag[], { locale }: AltTextOptions): string | null {
  // Context describes the batch and the date says when, not what: neither belongs in a description of this picture.
  const candidates = rankedCandidates(tags, locale).filter((candidate) => candidate.role !== 'fallback');
  const subjects = phrasesOf(
    candidates,
    (candidate) => candidate.role === 'subject' && candidate.source !== 'text' && candidate.source !== 'description',
    MAX_SUBJECTS,
  );
  const scenes = phrasesOf(candidates, (candidate) => candidate.role === 'scene', MAX_SCENES);
  const [text] = phrasesOf(candidates, (candidate) => candidate.source === 'text', 1);
  const colours = phrasesOf(candidates, (candidate) => candidate.role === 'colour', MAX_COLOURS);
  const [place] = phrasesOf(candidates, (candidate) => candidate.role === 'place', 1);

  const [head, ...details] = sentenceParts({ subjects, scenes, text, colours, place });
  if (head === undefined) return null;
  let sentence = fitted(head);
  for (const detail of details) {
    if (detail && asSentence(sentence + detail).length <= MAX_ALT_TEXT_LENGTH) sentence += detail;
  }
  return asSentence(sentence);
}

interface Said {
  subjects: string[];
  scenes: string[];
  text: string | undefined;
  colours: string[];
  place: string | undefined;
}

/** The sentence's head (what it is about) and the details added while they fit, most telling first. */
function sentenceParts({ subjects, scenes, text, colours, place }: Said): string[] {
  const withText = text ? `, with the text "${text}"` : '';
  const inColours = colours.length > 0 ? ` in ${joined(colours)} tones` : '';
  const nearPlace = place ? ` near ${capitalisedWords(place)}` : '';
  if (subjects.length > 0) {
    return [joined(subjects), scenes.length > 0 ? ` with ${joined(scenes)}` : '', withText, inColours, nearPlace];
  }
  if (scenes.length > 0) return [joined(scenes), withText, inColours, nearPlace];
  if (colours.length > 0) return [`${joined(colours)} tones`, withText, nearPlace];
  if (text) return [`The text "${text}"`, nearPlace];
  return place ? [`Taken near ${capitalisedWords(place)}`] : [];
}

/** The leading words of `text` that fit in an alt text with its full stop. */
function fitted(text: string): string {
  if (text.length < MAX_ALT_TEXT_LENGTH) return text;
  const cut = text.slice(0, MAX_ALT_TEXT_LENGTH);
  const space = cut.lastIndexOf(' ');
  return space > 0 ? cut.slice(0, space) : cut.slice(0, MAX_ALT_TEXT_LENGTH - 1);
}
