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
    const named = nameImage(await analyzer.analyze(paths[index]!, context), context);
    verdicts.push({
      file: photo.file,
      filename: named.filename,
      ...judgeFilenameWords(photo, named.words),
      ...judgeSubjects(photo, named.words, OBJECT_WORDS),
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
    words: verdicts.reduce((sum, v) => sum + v.correct.length + v.neutral.length + v.wrong.length, 0),
    wrongWords: verdicts.reduce((sum, verdict) => sum + verdict.wrong.length, 0),
  };
}
