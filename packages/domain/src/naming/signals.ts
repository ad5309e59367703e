import { DATE_TAG_MONTHS, type TagSource, type VisionTag } from '@renamer/contracts';
import { type Chunk, chunkOf, splitTokens, tokensOf } from './words';

/**
 * What a source's words do in a name. `subject`: says what the picture shows. `scene`: the light and the
 * setting. `place`: where it was taken. `colour`: dominant colours, which describe the whole frame and not
 * necessarily its subject. `fallback`: said only when too little else is known (the batch's free-text
 * context describes the batch, not this picture; the date describes when, not what).
 */
export type SignalRole = 'subject' | 'scene' | 'place' | 'kind' | 'light' | 'colour' | 'fallback';

export interface SignalPolicy {
  /** Lower ranks first: a name is filled from rank 0 on. */
  rank: number;
  /** The least confidence a tag of the source needs to reach a name or an alt text. */
  threshold: number;
  role: SignalRole;
}

/**
 * Ranked as the issue orders the signals: the person's words, then the file's own title and keywords, then
 * what the pixels show. Tags arrive already cut at their source's threshold, each calibrated on the fixture
 * photographs where that source is measured (@renamer/vision's README: objects at a detector score of 0.5 over
 * an allow-list of classes, colour, scene and text at 0.5 meaning "exactly on the measured threshold"). A second,
 * uncalibrated bar here would only hide words the measurements found right, so every bar is 0.5, the shared
 * scale's "more likely right than wrong". The person's own words need no bar. Camera and lens never describe
 * the picture: `null`, never in a name.
 */
export const NAME_SIGNALS: Readonly<Record<TagSource, SignalPolicy | null>> = {
  keywords: { rank: 0, threshold: 0, role: 'subject' },
  title: { rank: 1, threshold: 0.5, role: 'subject' },
  'file-keywords': { rank: 2, threshold: 0.5, role: 'subject' },
  filename: { rank: 3, threshold: 0, role: 'subject' },
  description: { rank: 4, threshold: 0.5, role: 'subject' },
  llm: { rank: 5, threshold: 0.5, role: 'subject' },
  text: { rank: 6, threshold: 0.5, role: 'subject' },
  objects: { rank: 7, threshold: 0.5, role: 'subject' },
  scene: { rank: 8, threshold: 0.5, role: 'scene' },
  place: { rank: 9, threshold: 0.5, role: 'place' },
  composition: { rank: 10, threshold: 0.5, role: 'kind' },
  light: { rank: 11, threshold: 0.5, role: 'light' },
  colour: { rank: 12, threshold: 0.5, role: 'colour' },
  context: { rank: 13, threshold: 0, role: 'fallback' },
  date: { rank: 14, threshold: 0.5, role: 'fallback' },
  camera: null,
};

/** One tag's words, ready to go into a name. */
export interface Candidate {
  source: TagSource;
  role: SignalRole;
  confidence: number;
  /** The label as one phrase, its inner stop words kept (`cup of tea`). */
  whole: Chunk;
  /** The label split at its stop words (`red mug`, `wooden table`), tried when the whole does not fit. */
  parts: Chunk[];
}

const NUMERIC_DATE = /\b((?:19|20)\d\d)[-:/.](0?[1-9]|1[0-2])\b/;
const YEAR = /^(?:19|20)\d\d$/;

export function passesThreshold(tag: VisionTag): boolean {
  const policy = NAME_SIGNALS[tag.source];
  return policy !== null && tag.confidence >= policy.threshold;
}

/** The tags that may reach a name, as candidates in rank order (then by confidence, then as given). */
export function rankedCandidates(tags: readonly VisionTag[], locale: string): Candidate[] {
  return tags
    .filter(passesThreshold)
    .flatMap((tag) => candidatesOf(tag, locale))
    .sort((a, b) => rankOf(a) - rankOf(b) || b.confidence - a.confidence);
}

function rankOf(candidate: Candidate): number {
  return NAME_SIGNALS[candidate.source]!.rank;
}

function candidatesOf(tag: VisionTag, locale: string): Candidate[] {
  const { source, confidence } = tag;
  const role = NAME_SIGNALS[source]!.role;
  if (source === 'date') {
    const chunk = dateChunk(tag.label);
    return chunk ? [{ source, role, confidence, whole: chunk, parts: [chunk] }] : [];
  }
  // A generic word (photo, img1234) is dropped and ends the phrase it stood in.
  return splitTokens(tokensOf(tag.label, locale), (token) => token.generic && !token.stop).map((run) => ({
    source,
    role,
    confidence,
    whole: chunkOf(run),
    parts: splitTokens(run, (token) => token.stop).map(chunkOf),
  }));
}

/** `2024-06-01`, `2024:06:01 12:00:00` or `june 2024` → `june 2024`; a bare year stays a year. */
function dateChunk(label: string): Chunk | null {
  const numeric = NUMERIC_DATE.exec(label);
  const words = numeric
    ? [DATE_TAG_MONTHS[Number(numeric[2]) - 1]!, numeric[1]!]
    : label
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .filter((word) => (DATE_TAG_MONTHS as readonly string[]).includes(word) || YEAR.test(word));
  return words.length > 0 ? { text: words.join(' '), words } : null;
}
