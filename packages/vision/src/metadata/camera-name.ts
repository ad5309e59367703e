import { wordsOf } from './meaningful-text';

/** Company words makers put after their name in `Make` (`NIKON CORPORATION`, `OLYMPUS IMAGING CORP.`). */
const COMPANY_WORDS =
  /[\s,]+(corporation|corp\.?|company|co\.?|ltd\.?|limited|inc\.?|gmbh|ag|s\.?a\.?|imaging|optical|electronics|mobile|telecommunications?)\b\.?/gi;

/**
 * `Make` and `Model` as one name, the make said once: `NIKON CORPORATION` + `NIKON D750` → `NIKON D750`,
 * `Apple` + `iPhone 12` → `Apple iPhone 12`, `OLYMPUS IMAGING CORP.` + `E-M10` → `OLYMPUS E-M10`.
 */
export function cameraName(make: string | undefined, model: string | undefined): string | undefined {
  const maker = (make ?? '').replace(COMPANY_WORDS, '').trim();
  const product = (model ?? '').trim();
  if (!product) return maker || undefined;
  const productWords = new Set(wordsOf(product));
  if (!maker || wordsOf(maker).some((word) => productWords.has(word))) return product;
  return `${maker} ${product}`;
}
