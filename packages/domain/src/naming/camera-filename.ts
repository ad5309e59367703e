/**
 * Words that cameras, phones, messengers, screenshot tools and browsers put in the names they make, in the
 * languages of the supported locales (`Bildschirmfoto … um …`, `Capture d'écran … à …`, `WhatsApp Image … at
 * …`), and the mode suffixes of phone cameras (`PXL_….PORTRAIT`, `….MP`). Spelled without diacritics.
 */
const MACHINE_WORDS = new Set(
  (
    'a alle am as at bildschirmfoto burst capture captura cattura cimg cover d dcp de dcim dji download downloads ' +
    'dsc dscf dscn e ecran ekran ekranu fb file foto fotos gopr goruntusu hdr image images img imgp mg mp mvimg ' +
    'night om original pantalla photo photos pic pict picture pm portrait pxl raw received sam schermafbeelding ' +
    'schermata screen screenshot shot signal skarmavbild skarmbild snapchat tela telegram um unnamed untitled vid ' +
    'video wa whatsapp wp zrzut'
  ).split(' '),
);

/** Names that say nothing even without a number: what a browser or a tool calls an image it saves. */
const BLANK_NAMES = new Set([
  'download',
  'file',
  'image',
  'images',
  'img',
  'photo',
  'pic',
  'picture',
  'unnamed',
  'untitled',
]);

/** The counters of camera and phone makers: DSC01234, IMGP1234, P1000123 (Panasonic), GH010001 (GoPro), WA0001. */
const COUNTER =
  /^(?:cimg|dcp|dji|dsc|dscf|dscn|e|fb|gh|gopr|gp|gx|img|imgp|mg|mvimg|p|pict|pxl|r|s|sam|v|vid|wa|wp)\d+[a-z]?$/;
/** Hex digests and the random ids of uploads and CDNs: a3f5c9e8, 1506744038136x46273834b3fb. */
const HEX_DIGEST = /^(?=[a-f]*\d)(?=\d*[a-f])[0-9a-f]{8,}$/;
const RANDOM_ID = /^(?=[a-z]*\d)[a-z0-9]{16,}$/;
/** ISO 8601 basic date-times: 20240101t123456z. */
const BASIC_DATE_TIME = /^\d{8}t\d{4,6}z?$/;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const EXTENSION = /\.[a-z0-9]{2,5}$/;
/** Android names a screenshot after the app it shows: Screenshot_20240101-123456_Chrome. */
const ANDROID_SCREENSHOT = /^screenshot_\d{8}-\d{6}(?:_[a-z0-9.]+)?$/;

function isMachineNumber(token: string): boolean {
  return (
    /^\d+$/.test(token) ||
    COUNTER.test(token) ||
    HEX_DIGEST.test(token) ||
    RANDOM_ID.test(token) ||
    BASIC_DATE_TIME.test(token)
  );
}

/**
 * Whether a device or a program made this name rather than a person: `IMG_1234.JPG`, `DSC01234`,
 * `PXL_20240101_123456789.PORTRAIT.jpg`, `Screenshot_2024-01-05-12-34-56`, `WhatsApp Image 2024-01-01 at
 * 12.34.56 (1).jpeg`, a hash, a UUID, a date, a bare number, `image (3).png`. Such a name says nothing about
 * the picture. A name with one word of a person's (`IMG_1234 red shoes`) is not camera-made.
 */
export function isCameraMadeFilename(name: string): boolean {
  const base = name.split(/[/\\]/).at(-1) ?? '';
  let stem = base.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  stem = stem.replace(EXTENSION, '');
  if (ANDROID_SCREENSHOT.test(stem)) return true;
  const hadUuid = stem.match(UUID) !== null;
  stem = stem.replace(UUID, ' ');
  const tokens = stem.split(/[^a-z0-9]+/).filter((token) => token.length > 0);
  if (tokens.length === 0) return hadUuid;
  const numbered = hadUuid || tokens.some(isMachineNumber);
  if (!tokens.every((token) => isMachineNumber(token) || MACHINE_WORDS.has(token))) return false;
  return numbered || tokens.every((token) => BLANK_NAMES.has(token));
}
