import type { ImageFormat, TagSource, VisionTag } from '@renamer/contracts';
import { DEFAULT_PROPOSAL_WORDS, MAX_STEM_LENGTH } from '../filename/filename-rules';
import { FILE_EXTENSIONS } from '../filename/formats';
import { isStopWord } from '../filename/vocabulary';
import { composeWords, NameWords, type WordLimits } from './compose-words';
import { bitDistance, type HashBits, hashBits, isPerceptualHash } from './hash-distance';
import type { ImageFacts } from './image-facts';
import { type NameShape, uniqueShape } from './name-shape';
import { type NameProposal, shapedFrom, shapedProposal } from './propose-name';
import { shotFollowers } from './shot-pairs';
import { type Candidate, rankedCandidates } from './signals';
import type { NamingTemplate } from './template';
import { hasRootIn } from './words';

export interface BatchItem {
  id: string;
  format: ImageFormat;
  tags: readonly VisionTag[];
  /** 64-bit dHash as 16 hex digits. */
  perceptualHash?: string | null;
  /** `shotKey` of the uploaded file: a RAW and the JPEG of the same shot get one stem. */
  shot?: string | null;
  /** What a template's tokens and a name's last words are made of. */
  facts?: ImageFacts;
}

export interface BatchNamingOptions {
  locale: string;
  /** Filenames already held in the batch (with their extension): no proposal takes one. */
  taken?: ReadonlySet<string>;
  /** The batch's naming template; none means `{subject}`. */
  template?: NamingTemplate | null;
}

/**
 * Hamming distances between the analyser's 64-bit dHashes (`perceptualHash` in @renamer/vision). On the 22
 * fixture photographs, copies at 640 px (JPEG q60), 300 px (WebP q50) and 1600 px 15 % brighter land 0–5 bits
 * away, unrelated photographs 10 and more (10 and 13 between two dusky lakes and a sunset, whose smooth gradients
 * hash alike; median 32): within 6 bits is one picture resized, re-encoded or lightly edited. On the 36 Debian
 * wallpapers, crops of 5–15 %, shifts and the dark and light versions of one wallpaper land at 10 to 34, where
 * different pictures also lie (22 of 490 within 20): there, only a shared subject tells shots of one subject
 * apart from strangers.
 */
export const NEAR_DUPLICATE_DISTANCE = 6;
export const SAME_SUBJECT_DISTANCE = 20;
/** A flat or smooth frame sets (almost) no bit or every bit: such hashes match each other whatever they show. */
const MIN_HASH_BITS = 9;

/** Sources whose words tell one shot from another, best first: colour, object, angle (scene) and place. */
const DISTINGUISHING_SOURCES: readonly TagSource[] = [
  'colour',
  'objects',
  'scene',
  'place',
  'llm',
  'text',
  'title',
  'file-keywords',
  'description',
  'filename',
  'date',
];
/** Words every image of the batch shares by design: they never tell images apart. */
const BATCH_SOURCES: readonly TagSource[] = ['keywords', 'context'];

interface Prepared {
  item: BatchItem;
  candidates: Candidate[];
  /** Every word its tags could put in a name. */
  pool: string[];
  solo: string[];
  /** The words of `solo` as one string, to compare. */
  soloStem: string;
  /** The perceptual hash if it is one that tells pictures apart. */
  hash: HashBits | null;
}

/**
 * Names a batch as a whole: near-duplicates and shots of one subject (close perceptual hashes and a shared
 * subject, or the same proposed name) share a stem made of the words true of them all, and each is told apart
 * by a word only it has (a colour, object, scene or place word) before a bare `-2`. A RAW file and the JPEG of
 * the same shot share one stem (`shotKey`). Names are unique within the batch and avoid `taken`; the same input
 * in the same order gives the same names.
 */
export function nameBatch(
  items: readonly BatchItem[],
  { locale, taken = new Set(), template = null }: BatchNamingOptions,
): Map<string, NameProposal> {
  const limits: WordLimits = { maxWords: DEFAULT_PROPOSAL_WORDS, maxLength: MAX_STEM_LENGTH, locale };
  const followers = shotFollowers(items);
  const following = new Set([...followers.values()].flat());
  const prepared = items
    .filter((item) => !following.has(item))
    .map((item): Prepared => {
      const candidates = rankedCandidates(item.tags, locale);
      const pool = candidates.flatMap((candidate) => candidate.whole.words).filter((word) => !isStopWord(word, locale));
      const solo = composeWords(candidates, limits);
      return { item, candidates, pool, solo, soloStem: solo.join('-'), hash: informativeBits(item.perceptualHash) };
    });
  const words = new Map<Prepared, string[]>();
  for (const group of groupsOf(prepared)) {
    const named = group.length > 1 ? namedTogether(group, limits) : null;
    for (const member of group) words.set(member, named?.get(member) ?? member.solo);
  }
  const used = new Set(taken);
  const proposals = new Map<string, NameProposal>();
  for (const member of prepared) {
    const shot = [member.item, ...(followers.get(member.item.id) ?? [])];
    const extensions = shot.map((item) => FILE_EXTENSIONS[item.format]);
    // A stem is free only when it is free under every extension of the shot.
    const takenStem = { has: (filename: string) => extensions.some((ext) => used.has(withExtension(filename, ext))) };
    const chosen = words.get(member)!;
    const proposalOf = (item: BatchItem, shape?: NameShape) => {
      const options = { format: item.format, locale, facts: item.facts, template };
      return shape
        ? shapedFrom(shape, item.tags, options)
        : shapedProposal(member.candidates, chosen, item.tags, options);
    };
    const lead = proposalOf(member.item);
    // Every file of the shot takes the lead's words, under the first stem free for all of them.
    let shape = lead.ok ? lead.shape : undefined;
    if (lead.ok && takenStem.has(lead.filename)) {
      shape = uniqueShape(lead.shape, member.item.format, takenStem)?.shape ?? shape;
    }
    for (const item of shot) {
      const proposal = proposalOf(item, shape);
      if (proposal.ok) used.add(proposal.filename);
      proposals.set(item.id, proposal);
    }
  }
  return new Map(items.map((item) => [item.id, proposals.get(item.id)!]));
}

const withExtension = (filename: string, extension: string) =>
  `${filename.slice(0, filename.lastIndexOf('.'))}.${extension}`;

/** Connected groups of alike images, each in input order, the groups in the order of their first image. */
function groupsOf(prepared: readonly Prepared[]): Prepared[][] {
  const parent = prepared.map((_, index) => index);
  const root = (index: number): number => {
    let at = index;
    while (parent[at] !== at) {
      parent[at] = parent[parent[at]!]!;
      at = parent[at]!;
    }
    return at;
  };
  prepared.forEach((a, i) => {
    for (let j = i + 1; j < prepared.length; j++) {
      if (!alike(a, prepared[j]!)) continue;
      const [first, second] = [root(i), root(j)];
      parent[Math.max(first, second)] = Math.min(first, second);
    }
  });
  const groups = new Map<number, Prepared[]>();
  prepared.forEach((member, index) => {
    const key = root(index);
    const group = groups.get(key);
    if (group) group.push(member);
    else groups.set(key, [member]);
  });
  return [...groups.values()];
}

function alike(a: Prepared, b: Prepared): boolean {
  if (a.soloStem !== '' && a.soloStem === b.soloStem) return true;
  if (a.hash === null || b.hash === null) return false;
  const distance = bitDistance(a.hash, b.hash);
  return distance <= NEAR_DUPLICATE_DISTANCE || (distance <= SAME_SUBJECT_DISTANCE && shareSubject(a, b));
}

function informativeBits(hash: string | null | undefined): HashBits | null {
  if (!isPerceptualHash(hash)) return null;
  const bits = hashBits(hash);
  const set = bitDistance(bits, [0, 0]);
  return set >= MIN_HASH_BITS && set <= 64 - MIN_HASH_BITS ? bits : null;
}

/** Whether the first thing each image's own tags name (not the batch's words) is the same. */
function shareSubject(a: Prepared, b: Prepared): boolean {
  const subject = (member: Prepared) =>
    member.candidates.find((candidate) => candidate.role === 'subject' && !BATCH_SOURCES.includes(candidate.source))
      ?.whole.words;
  const [first, second] = [subject(a), subject(b)];
  return first !== undefined && second !== undefined && first.some((word) => hasRootIn(word, second));
}

/**
 * A shared stem of the words every member's tags hold (in the first member's ranking), with one place kept
 * for each member's distinguishing word; null when the members share no word worth a name.
 */
function namedTogether(group: readonly Prepared[], limits: WordLimits): Map<Prepared, string[]> | null {
  const sharedByAll = (word: string) =>
    isStopWord(word, limits.locale) || group.every((member) => hasRootIn(word, member.pool));
  const shared = group[0]!.candidates.map((candidate) => ({
    ...candidate,
    whole: { ...candidate.whole, words: candidate.whole.words.filter(sharedByAll) },
    parts: candidate.parts.map((part) => ({ ...part, words: part.words.filter(sharedByAll) })),
  }));
  const stem = composeWords(shared, { ...limits, maxWords: limits.maxWords - 1 });
  if (stem.length === 0) return null;
  const named = new Map<Prepared, string[]>();
  const given = new Set<string>();
  for (const member of group) {
    const others = group.filter((other) => other !== member);
    const words = distinguished(member, others, stem, given, limits);
    given.add(words.join('-'));
    named.set(member, words);
  }
  return named;
}

/**
 * The stem with the member's best distinguishing word: first one no other member has, else one not every
 * other member has; the stem alone when no word is left that has not been given to another member.
 */
function distinguished(
  member: Prepared,
  others: readonly Prepared[],
  stem: readonly string[],
  given: ReadonlySet<string>,
  limits: WordLimits,
): string[] {
  const candidates = DISTINGUISHING_SOURCES.flatMap((source) =>
    member.candidates.filter((candidate) => candidate.source === source),
  );
  const missingFrom = (word: string) => others.filter((other) => !hasRootIn(word, other.pool)).length;
  for (const enough of [others.length, 1]) {
    for (const candidate of candidates) {
      for (const chunk of [candidate.whole, ...candidate.parts]) {
        const words = new NameWords(limits);
        words.addWords(stem);
        const fresh = words.newWords(chunk.words);
        if (!fresh.some((word) => !isStopWord(word, limits.locale) && missingFrom(word) >= enough)) continue;
        if (words.addWords(fresh) > 0 && !given.has(words.list.join('-'))) return words.list;
      }
    }
  }
  return [...stem];
}
