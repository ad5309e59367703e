import type { ImageFormat, SeoScore, VisionTag } from '@renamer/contracts';
import {
  DEFAULT_PROPOSAL_WORDS,
  type FilenameRejection,
  MAX_STEM_LENGTH,
  normalizeFilename,
} from '../filename/filename-rules';
import { composeWords } from './compose-words';
import { scoreFilename } from './seo-score';
import { rankedCandidates } from './signals';

export interface NameOptions {
  format: ImageFormat;
  locale: string;
  /** At most this many words (default and upper bound: 6). */
  maxWords?: number;
}

export type NameProposal =
  | { ok: true; filename: string; stem: string; words: string[]; seo: SeoScore }
  | { ok: false; reason: FilenameRejection };

/** `maxWords` as a whole number from 1 to 6; anything else (missing, NaN) means 6. */
function wordLimit(maxWords: number | undefined): number {
  const asked = maxWords !== undefined && Number.isFinite(maxWords) ? Math.floor(maxWords) : DEFAULT_PROPOSAL_WORDS;
  return Math.max(1, Math.min(DEFAULT_PROPOSAL_WORDS, asked));
}

/**
 * The name the tags deserve: up to six words from the ranked signals (see `NAME_SIGNALS` and `composeWords`),
 * through the filename rules, with its SEO score. A rejection says why no name could be made (`empty` when
 * no tag says anything a name may hold).
 */
export function proposeName(tags: readonly VisionTag[], options: NameOptions): NameProposal {
  const words = composeWords(rankedCandidates(tags, options.locale), {
    maxWords: wordLimit(options.maxWords),
    maxLength: MAX_STEM_LENGTH,
    locale: options.locale,
  });
  return namedFrom(words, tags, options);
}

/** `words` as a proposal, once the filename rules have passed them. */
export function namedFrom(words: readonly string[], tags: readonly VisionTag[], options: NameOptions): NameProposal {
  const named = normalizeFilename(words.join('-'), options);
  if (!named.ok) return named;
  const seo = scoreFilename(named.filename, { tags, locale: options.locale });
  return { ...named, words: named.stem.split('-'), seo };
}
