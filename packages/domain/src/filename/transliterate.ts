/**
 * How each language writes its own letters in plain ASCII, as its speakers do in web addresses. A letter not
 * listed for the language falls back to `FALLBACK_LETTERS`, then to its base letter without the diacritic
 * (`é` → `e`). Swedish keeps to the base letter (`å` → `a`, `ä` → `a`, `ö` → `o`), as Swedish sites do;
 * German spells umlauts out (`ü` → `ue`), and Danish and Norwegian write `æ` `ø` `å` as `ae` `oe` `aa`, the
 * spelling their orthographies give for these letters when they are missing (WordPress's `remove_accents`
 * does the same for `de_DE` and `da_DK`).
 */
export const TRANSLITERATIONS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  en: {},
  de: { ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss' },
  fr: {
    œ: 'oe',
    æ: 'ae',
    ç: 'c',
    é: 'e',
    è: 'e',
    ê: 'e',
    ë: 'e',
    à: 'a',
    â: 'a',
    î: 'i',
    ï: 'i',
    ô: 'o',
    ù: 'u',
    û: 'u',
    ü: 'u',
    ÿ: 'y',
  },
  es: { ñ: 'n', á: 'a', é: 'e', í: 'i', ó: 'o', ú: 'u', ü: 'u' },
  pt: { ã: 'a', õ: 'o', ç: 'c', á: 'a', â: 'a', à: 'a', é: 'e', ê: 'e', í: 'i', ó: 'o', ô: 'o', ú: 'u' },
  it: { à: 'a', è: 'e', é: 'e', ì: 'i', ò: 'o', ù: 'u' },
  nl: { ĳ: 'ij', ë: 'e', ï: 'i', é: 'e', ö: 'o', ü: 'u' },
  pl: { ą: 'a', ć: 'c', ę: 'e', ł: 'l', ń: 'n', ó: 'o', ś: 's', ź: 'z', ż: 'z' },
  sv: { å: 'a', ä: 'a', ö: 'o' },
  da: { æ: 'ae', ø: 'oe', å: 'aa' },
  nb: { æ: 'ae', ø: 'oe', å: 'aa' },
  nn: { æ: 'ae', ø: 'oe', å: 'aa' },
  no: { æ: 'ae', ø: 'oe', å: 'aa' },
  tr: { ı: 'i', ş: 's', ğ: 'g', ç: 'c', ö: 'o', ü: 'u', â: 'a', î: 'i', û: 'u' },
};

/** Letters that NFKD leaves whole, so stripping combining marks alone would drop them. */
const FALLBACK_LETTERS: Readonly<Record<string, string>> = {
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

/** French and Italian elide articles (`l'eau`, `dell'arte`): there the apostrophe ends a word. */
const ELIDING_LANGUAGES = new Set(['fr', 'it']);

/** The primary language subtag of a BCP 47 tag, lowercase: `de-AT` → `de`. */
export function languageOf(locale: string): string {
  return (locale.split(/[-_]/)[0] ?? '').toLowerCase();
}

/** Whether the locale's language elides articles with an apostrophe, which then ends a word. */
export function elidesWithApostrophe(locale: string): boolean {
  return ELIDING_LANGUAGES.has(languageOf(locale));
}

/**
 * Splits text into lowercase ASCII words of `[a-z0-9]`, writing each letter as the locale's language does
 * (`TRANSLITERATIONS`). Letters of scripts without a Latin decomposition are dropped.
 */
export function toAsciiWords(text: string, locale: string): string[] {
  const language = languageOf(locale);
  const letters = TRANSLITERATIONS[language] ?? {};
  const apostrophe = elidesWithApostrophe(locale) ? ' ' : '';
  const ascii = text
    .normalize('NFC')
    .toLowerCase()
    .replace(/\P{ASCII}/gu, (letter) => letters[letter] ?? FALLBACK_LETTERS[letter] ?? letter)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    // An apostrophe joins its word ("women's" → "womens") instead of splitting off a lone letter.
    .replace(/['’ʼ]/g, apostrophe);
  return ascii.split(/[^a-z0-9]+/).filter((word) => word.length > 0);
}
