import { IMAGE_FILE_EXTENSIONS } from '@renamer/contracts';

/**
 * Text that files carry but that says nothing about the picture, by family. A title, a description or a keyword
 * is read sentence by sentence (see `meaningful-text.ts`): a sentence matching any pattern here is dropped, the
 * rest of the photographer's words are kept. Patterns see the sentence trimmed, with runs of whitespace as one space.
 */
export const BOILERPLATE_FAMILIES = {
  /** What cameras and phones write into `ImageDescription` by default. */
  'camera-default': [
    /^(olympus|konica minolta|minolta|kodak|nikon|pentax|casio|fujifilm|sanyo|ricoh|sony|samsung|vivitar)( digital)?( still)? (camera|image|dsc)$/i,
    /^(sony|minolta|nikon|pentax|sanyo) dsc$/i,
    /^(dcim|samsung|lg electronics|exif_jpeg_picture|digital image)$/i,
    /^(digital )?(still )?camera( image| photo)?$/i,
    /^(hp|hewlett[- ]packard) ?photosmart\b/i,
    /^shot (on|with) (an? )?[\w-]+( [\w-]+)?$/i,
  ],
  /**
   * Exposure settings and gear: a value that is one setting (`50mm`, `f/1.8`, `ISO 100`, `DSLR`), or a sentence with a
   * focal length and an aperture, or two of aperture, shutter speed and ISO.
   */
  'camera-settings': [
    /^(\d+(-\d+)?\s?mm|f\/\d+(\.\d+)?|iso\s?\d{2,5}|1\/\d+\s?s?|dslr|slr|mirrorless)$/i,
    /\b\d+(-\d+)?\s?mm\b.*\bf\/\d|\bf\/\d.*\b\d+(-\d+)?\s?mm\b/i,
    /\bf\/\d.*\b(iso\s?\d{2,5}|1\/\d+\s?s?)\b|\b(iso\s?\d{2,5}|1\/\d+\s?s?)\b.*\bf\/\d/i,
    /\biso\s?\d{2,5}\b.*\b1\/\d+\s?s?\b|\b1\/\d+\s?s?\b.*\biso\s?\d{2,5}\b/i,
  ],
  /** Language-alternative attributes that editors leak as a value instead of a language tag. */
  'lang-alt': [/^\[?(x-default|x-repair)\]?$/i, /^(xml:)?lang=["']?[\w-]*["']?$/i],
  /** Editors' and apps' placeholders, software credits, and camera file names used as titles. */
  placeholder: [
    /^(default|untitled|no title|no description|no caption|title|description|caption|image|photo|picture)([ _-]?\d+)?$/i,
    /^(none|null|undefined|n\/a|unknown|copy|new image|-+|\.+|\?+|_+)$/i,
    /^(picasa|screenshot|screen shot)\b/i,
    /^(img|dsc|dscn|dscf|imgp|pxl|mvimg|vid|gopr)[_-]?\d{3,}/i,
    new RegExp(`\\.(${IMAGE_FILE_EXTENSIONS.join('|')})$`, 'i'),
    /^(created|edited|processed|retouched) (with|in|using|by) /i,
    /^made with (gimp|photoshop|lightroom|snapseed|vsco|picsart|canva)\b/i,
    /^(adobe )?(photoshop|lightroom)\b/i,
    /^gimp\b/i,
  ],
  /** Stock libraries' words about the file rather than the scene: its orientation, its colour mode, its use. */
  'image-format': [
    /^(horizontal|vertical|landscape format|portrait format|square format|square image)$/i,
    /^(colou?r image|colou?r photo|full frame|copy space|no people|nobody|photography|stock|stock photo(graph)?|digital)$/i,
  ],
  /** Licences, copyright notices and credits: about rights, not about the picture. */
  licence: [
    /all rights reserved/i,
    /©|\(c\)\s*\d{4}|℗/i,
    /\bcopyright(ed)?\b/i,
    /\bcc[- ]?(by|0)\b/i,
    /\bcreative commons\b/i,
    /\blicen[cs]ed (under|to|by|for)\b/i,
    /^licen[cs]e:/i,
    /\b(mit|gpl|apache|bsd|royalty[- ]free|commercial|standard|extended|editorial) licen[cs]e\b/i,
    /\b(royalty[- ]free|public domain)\b/i,
    /\b(editorial use|without (prior )?(written )?permission|unauthori[sz]ed (use|copying|reproduction)|may not be (used|reproduced|copied))\b/i,
    /^(photo|image|picture|photograph)s? (by|credit|courtesy)\b/i,
    /^(credit|photographer|author|source)s?:/i,
    /\bcourtesy of\b/i,
  ],
  /** Addresses: a link or an e-mail address is never a description. */
  address: [/\bhttps?:\/\//i, /\bwww\.[\w-]+\./i, /[\w.+-]+@[\w-]+\.[\w.-]+/, /\b[\w-]+\.(com|org|net|io|co\.uk)\b/i],
} as const satisfies Record<string, readonly RegExp[]>;

export type BoilerplateFamily = keyof typeof BOILERPLATE_FAMILIES;

/** The family a sentence belongs to, or `null` when it may be the photographer's own words. */
export function boilerplateFamily(sentence: string): BoilerplateFamily | null {
  const text = sentence.replace(/\s+/g, ' ').trim();
  for (const [family, patterns] of Object.entries(BOILERPLATE_FAMILIES) as [BoilerplateFamily, readonly RegExp[]][]) {
    if (patterns.some((pattern) => pattern.test(text))) return family;
  }
  return null;
}
