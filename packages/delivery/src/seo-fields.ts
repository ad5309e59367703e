export interface SeoFields {
  title: string;
  description: string | null;
  altText: string | null;
  keywords: string[];
}

/**
 * Title from the filename's words (`red-ceramic-cups.jpg` → "Red ceramic cups"); description = alt text;
 * keywords = tags, de-duplicated.
 */
export function seoFieldsFor(image: { filename: string; altText: string | null; tags: string[] }): SeoFields {
  const altText = image.altText?.trim() || null;
  return {
    title: titleFromFilename(image.filename),
    description: altText,
    altText,
    keywords: uniqueKeywords(image.tags),
  };
}

export function titleFromFilename(filename: string): string {
  const stem = filename.replace(/\.[^.]*$/, '');
  const words = stem
    .split(/[\s._-]+/u)
    .filter(Boolean)
    .join(' ');
  const [first = '', ...rest] = words;
  return first.toLocaleUpperCase() + rest.join('');
}

/** Trimmed, without empty ones; the first spelling of words equal but for case wins. */
export function uniqueKeywords(keywords: Iterable<string>): string[] {
  const seen = new Set<string>();
  const unique: string[] = [];
  for (const raw of keywords) {
    const keyword = raw.normalize('NFC').trim();
    const key = keywordKey(keyword);
    if (!keyword || seen.has(key)) continue;
    seen.add(key);
    unique.push(keyword);
  }
  return unique;
}

/** Keywords with the same key are the same keyword, written differently. */
export function keywordKey(keyword: string): string {
  return keyword.normalize('NFC').trim().toLocaleLowerCase();
}
