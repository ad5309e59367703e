const GERMAN_LETTERS: Readonly<Record<string, string>> = { ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss' };

/** Letters that NFKD leaves whole, so stripping combining marks alone would drop them. */
const UNDECOMPOSED_LETTERS: Readonly<Record<string, string>> = {
  ø: 'o',
  æ: 'ae',
  œ: 'oe',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ß: 'ss',
};

export function isGermanLocale(locale: string): boolean {
  return /^de(?:[-_]|$)/i.test(locale);
}

/**
 * Splits text into lowercase ASCII words of `[a-z0-9]`. German spells umlauts out (`ü` → `ue`); other
 * locales drop the diacritic (`ü` → `u`). Letters of scripts without a Latin decomposition are dropped.
 */
export function toAsciiWords(text: string, locale: string): string[] {
  let lower = text.normalize('NFC').toLowerCase();
  if (isGermanLocale(locale)) lower = lower.replace(/[äöüß]/g, (letter) => GERMAN_LETTERS[letter] ?? letter);
  const ascii = lower
    .replace(/[øæœłđðþıß]/g, (letter) => UNDECOMPOSED_LETTERS[letter] ?? letter)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    // An apostrophe joins its word ("women's" → "womens") instead of splitting off a lone letter.
    .replace(/['’ʼ]/g, '');
  return ascii.split(/[^a-z0-9]+/).filter((word) => word.length > 0);
}
