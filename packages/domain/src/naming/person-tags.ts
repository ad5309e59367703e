import type { TagSource, VisionTag } from '@renamer/contracts';
import { withoutTypedExtensions } from '../filename/filename-rules';
import { isPurposeWord } from '../filename/vocabulary';
import { isCameraMadeFilename } from './camera-filename';
import { chunkOf, splitTokens, type Token, tokensOf, trimStopTokens } from './words';

export interface PersonWords {
  /** The batch's keywords, each a word or a phrase. */
  keywords: readonly string[];
  /** The batch's free text (`handmade ceramic mugs for a coffee shop`). */
  context?: string | null;
  /** The name the file was uploaded under. */
  originalFilename?: string | null;
  locale: string;
}

/**
 * What editors and exports add to a name a person chose: `red-shoes-final-v2-edit.jpg` says `red shoes`.
 * Spelled as `toAsciiWords` writes them.
 */
const FILENAME_NOISE = new Set(
  'backup crop cropped draft edit edited export exported final hires lowres resized retouched scaled thumb thumbnail'.split(
    ' ',
  ),
);
/** Versions, counters and sizes: v2, 001, 1920x1080, 1080p. */
const FILENAME_COUNTER = /^(?:v?\d+|\d+x\d+|\d+p)$/;

/**
 * The person's words as tags, their confidence 1: each keyword whole (`cup of tea`), the context split into
 * its phrases at stop words, punctuation and words about the batch's purpose (blog, shop, my: `isPurposeWord`),
 * which never reach a name, and the uploaded name's phrases (without editors' words such as
 * final, edit, v2) unless a camera or a program
 * made it (`isCameraMadeFilename`). Stop words never start or end a tag; generic words are left out.
 */
export function personTags({ keywords, context, originalFilename, locale }: PersonWords): VisionTag[] {
  const tags = [
    ...keywords.flatMap((keyword) => phrases(keyword, locale, 'keywords', isGeneric)),
    ...(context
      ? sentencePhrases(context).flatMap((part) => phrases(part, locale, 'context', notContent(locale)))
      : []),
    ...(originalFilename && !isCameraMadeFilename(originalFilename)
      ? phrases(withoutTypedExtensions(originalFilename), locale, 'filename', isFilenameNoise)
      : []),
  ];
  const seen = new Set<string>();
  return tags.filter((tag) => {
    const key = `${tag.source}:${tag.label}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function phrases(text: string, locale: string, source: TagSource, isBreak: (token: Token) => boolean): VisionTag[] {
  return splitTokens(trimStopTokens(tokensOf(text, locale)), isBreak).map((run) => ({
    label: chunkOf(run).text,
    confidence: 1,
    source,
  }));
}

/** A sentence's clauses: commas, full stops and the like end a phrase as a stop word does. */
function sentencePhrases(text: string): string[] {
  return text.split(/[.,;:!?()[\]{}"“”«»/\\|\n\r\t–—]+/u);
}

function isGeneric(token: Token): boolean {
  return token.generic && !token.stop;
}

/** A context's stop, generic and purpose words: none describes what a picture shows. */
function notContent(locale: string) {
  return (token: Token) => token.stop || token.generic || token.ascii.every((word) => isPurposeWord(word, locale));
}

function isFilenameNoise(token: Token): boolean {
  return isGeneric(token) || token.ascii.every((word) => FILENAME_NOISE.has(word) || FILENAME_COUNTER.test(word));
}
