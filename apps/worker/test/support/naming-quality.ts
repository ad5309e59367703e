import { DEFAULT_PROPOSAL_WORDS, isCameraMadeFilename, MAX_STEM_LENGTH, MIN_NAME_WORDS } from '@renamer/domain';
import { OBJECT_WORDS } from '@renamer/vision';
import { type FixturePhoto, judgeFilenameWords, judgeSubjects } from '@renamer/vision/testing';
import type { ImageAnalyzer } from '../../src/analysis/image-analyzer';
import { nameImage } from '../../src/analysis/name-image';

export interface PhotoVerdict {
  file: string;
  filename: string;
  correct: string[];
  neutral: string[];
  wrong: string[];
  /** Words naming something the photograph shows (not a colour, the light or the kind of picture). */
  visible: string[];
  /** Words naming its main subject. */
  main: string[];
  /** Wrong words that name a detector's object or a person. */
  wrongObjects: string[];
  /** Why the name breaks the contract's rules for a proposal; empty when it keeps them. */
  broken: string[];
  /** How long the analysis took. */
  ms: number;
  /** The vision model's step, when one was asked: its outcome and the tokens it reported. */
  model?: { outcome: string; ms: number; tokens?: { prompt: number; completion: number } };
}

/** The rules a proposal without a template keeps: 3 to 6 parts (a `-2` counted), 60 characters, not a camera's. */
export function brokenRules(filename: string): string[] {
  const stem = filename.slice(0, filename.lastIndexOf('.'));
  const parts = stem.split('-').filter(Boolean).length;
  const broken: string[] = [];
  if (parts < MIN_NAME_WORDS || parts > DEFAULT_PROPOSAL_WORDS) broken.push(`${parts} part(s)`);
  if (stem.length > MAX_STEM_LENGTH) broken.push(`${stem.length} characters`);
  if (isCameraMadeFilename(filename)) broken.push('camera-made');
  return broken;
}

/**
 * Names each photograph as the worker would, from a camera's filename and no words of the person, and judges
 * the words of each name against what the photograph shows (`judgeFilenameWords`). `paths[i]` is the file analysed
 * for `photos[i]` (the original, or a stripped copy).
 */
export async function judgeProposals(
  analyzer: ImageAnalyzer,
  photos: readonly FixturePhoto[],
  paths: readonly string[],
): Promise<PhotoVerdict[]> {
  const verdicts: PhotoVerdict[] = [];
  for (const [index, photo] of photos.entries()) {
    const context = {
      originalFilename: `IMG_${4400 + index}.JPG`,
      keywords: [],
      context: null,
      locale: 'en',
    };
    const started = performance.now();
    const analysis = await analyzer.analyze(paths[index]!, context);
    const ms = Math.round(performance.now() - started);
    const named = nameImage(analysis, context);
    const step = analysis.provenance.find((entry) => entry.step === 'llm');
    verdicts.push({
      file: photo.file,
      filename: named.filename,
      ...judgeFilenameWords(photo, named.words),
      ...judgeSubjects(photo, named.words, OBJECT_WORDS),
      broken: brokenRules(named.filename),
      ms,
      ...(step && { model: { outcome: step.outcome, ms: step.durationMs, tokens: step.tokens } }),
    });
  }
  return verdicts;
}

/**
 * How many names say something true of their photograph, how many name a visible subject and how many its main
 * subject; how many words are wrong, and how many of those name an object or a person that is not there.
 */
export function tally(verdicts: readonly PhotoVerdict[]) {
  return {
    photos: verdicts.length,
    namingSomethingTrue: verdicts.filter((verdict) => verdict.correct.length > 0).length,
    namingVisibleSubject: verdicts.filter((verdict) => verdict.visible.length > 0).length,
    namingMainSubject: verdicts.filter((verdict) => verdict.main.length > 0).length,
    wrongObjectWords: verdicts.reduce((sum, verdict) => sum + verdict.wrongObjects.length, 0),
    keepingRules: verdicts.filter((verdict) => verdict.broken.length === 0).length,
    words: verdicts.reduce((sum, v) => sum + v.correct.length + v.neutral.length + v.wrong.length, 0),
    wrongWords: verdicts.reduce((sum, verdict) => sum + verdict.wrong.length, 0),
  };
}
