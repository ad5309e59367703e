import { isGermanLocale } from './transliterate';

// Compared after transliteration, so German words are spelled the way `toAsciiWords` writes them (für → fuer).
const ENGLISH_STOP_WORDS = wordSet(
  'a about after an and are as at be before but by for from has have her his i in into is it its my of off on onto or our over so than that the their these this those to under was we were with without your',
);

const GERMAN_STOP_WORDS = wordSet(
  'am an auf aus bei das dem den der des die ein eine einem einen einer eines fuer im in ins ist mit nach oder ohne sind ueber um und unter vom von vor zu zum zur',
);

const GENERIC_WORDS = wordSet(
  'copy dcim dsc dscf dscn edited file final image images img photo photos pic pics picture pictures pxl screen screenshot shot snapshot unnamed untitled',
);

const GERMAN_GENERIC_WORDS = wordSet('bild bilder bildschirmfoto foto fotos kopie unbenannt');

/** Pure numbers and the counters cameras and phones put in names: img1234, dsc01234, pxl20240101. */
const CAMERA_COUNTER = /^(?:\d+|(?:img|imgp|dsc|dscf|dscn|dcim|pxl|mvimg|gopr|dji|wp)\d+)$/;

/** Windows device names: a file called `con.jpg` cannot be written there. */
const RESERVED_NAMES = new Set(['con', 'prn', 'aux', 'nul', ...range('com'), ...range('lpt')]);

export function isStopWord(word: string, locale: string): boolean {
  return ENGLISH_STOP_WORDS.has(word) || (isGermanLocale(locale) && GERMAN_STOP_WORDS.has(word));
}

export function isGenericWord(word: string, locale: string): boolean {
  return (
    GENERIC_WORDS.has(word) || CAMERA_COUNTER.test(word) || (isGermanLocale(locale) && GERMAN_GENERIC_WORDS.has(word))
  );
}

export function isReservedName(stem: string): boolean {
  return RESERVED_NAMES.has(stem);
}

function range(prefix: string): string[] {
  return Array.from({ length: 9 }, (_, index) => `${prefix}${index + 1}`);
}

function wordSet(words: string): ReadonlySet<string> {
  return new Set(words.split(' '));
}
