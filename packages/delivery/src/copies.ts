import { type CopyFormat, IMAGE_FORMAT_TABLE, type ImageFormatName, type StripMode } from '@renamer/contracts';
import type { Sharp } from 'sharp';

/**
 * exiftool arguments removing every location a file can carry and nothing else: the EXIF GPS directory, XMP's GPS
 * tags (XMP-exif and any other namespace), the IPTC Extension's LocationCreated / LocationShown structures, IPTC
 * Core's location and country code, Photoshop's city, state and country, the IPTC IIM city, sub-location,
 * province-state and country, and the positions some maker notes keep. Camera, lens, dates and the rest stay.
 */
export const STRIP_LOCATION_ARGS: readonly string[] = [
  '-GPS:all=',
  '-XMP:GPS*=',
  '-XMP-iptcExt:LocationCreated*=',
  '-XMP-iptcExt:LocationShown*=',
  '-XMP-iptcCore:Location=',
  '-XMP-iptcCore:CountryCode=',
  '-XMP-photoshop:City=',
  '-XMP-photoshop:State=',
  '-XMP-photoshop:Country=',
  '-IPTC:City=',
  '-IPTC:Sub-location=',
  '-IPTC:Province-State=',
  '-IPTC:Country-PrimaryLocationCode=',
  '-IPTC:Country-PrimaryLocationName=',
  '-MakerNotes:GPS*=',
  '-MakerNotes:*Location*=',
];

/**
 * exiftool arguments removing every tag, then copying back from the file itself its colour profile (ICC) and its
 * orientation; exiftool adds the few structural EXIF tags a directory needs around the orientation.
 */
export const STRIP_ALL_ARGS: readonly string[] = ['-all=', '-tagsFromFile', '@', '-ICC_Profile', '-EXIF:Orientation'];

export function stripArgs(strip: StripMode): readonly string[] {
  if (strip === 'location') return STRIP_LOCATION_ARGS;
  if (strip === 'all') return STRIP_ALL_ARGS;
  return [];
}

/** The formats sharp writes a web-ready copy in; anything else (HEIC, camera RAW) becomes a JPEG. */
const ENCODABLE = ['jpeg', 'png', 'webp', 'gif', 'avif', 'tiff'] as const;
export type CopyTarget = (typeof ENCODABLE)[number];

/** The format a web-ready copy of a `stored` image is written in when `format` is asked for. */
export function copyTarget(stored: ImageFormatName, format: CopyFormat): CopyTarget {
  if (format !== 'original') return format;
  return (ENCODABLE as readonly string[]).includes(stored) ? (stored as CopyTarget) : 'jpeg';
}

/** The extension a copy in `target` is named with (the format's usual one). */
export const copyExtension = (target: CopyTarget): string => IMAGE_FORMAT_TABLE[target].extensions[0];

/** `name` with its extension replaced by `extension` (or added, when it has none). */
export function withExtension(name: string, extension: string): string {
  const dot = name.lastIndexOf('.');
  return `${dot > 0 ? name.slice(0, dot) : name}.${extension}`;
}

/** A web-ready copy: re-encoded from the original, at most `resize` px on the long side, in `target`. */
export interface WebReadyCopy {
  target: CopyTarget;
  resize?: number;
  quality?: number;
  /** The stored file's primary image upright (`@renamer/imaging`'s openUprightImage: RAW through its preview). */
  open(path: string): Promise<{ image: Sharp; release(): Promise<void> }>;
}

/**
 * The sharp pipeline of a web-ready copy: upright (the opener applied the orientation), at most `resize` px on the
 * long side and never enlarged, converted to sRGB, alpha kept where the format holds it (a JPEG gets a white
 * background). The EXIF and XMP of the original are kept (its orientation tag reset) unless `keepMetadata` is off.
 */
export function encodeCopy(image: Sharp, copy: WebReadyCopy, keepMetadata: boolean): Sharp {
  let pipeline = image;
  if (copy.resize !== undefined) {
    pipeline = pipeline.resize({
      width: copy.resize,
      height: copy.resize,
      fit: 'inside',
      withoutEnlargement: true,
    });
  }
  pipeline = pipeline.toColorspace('srgb');
  if (keepMetadata) pipeline = pipeline.keepExif().keepXmp();
  const quality = copy.quality;
  switch (copy.target) {
    case 'jpeg':
      return pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: quality ?? 82, mozjpeg: false });
    case 'webp':
      return pipeline.webp({ quality: quality ?? 80 });
    case 'avif':
      return pipeline.avif({ quality: quality ?? 55 });
    case 'tiff':
      return pipeline.tiff({ quality: quality ?? 90 });
    case 'gif':
      return pipeline.gif();
    case 'png':
      return pipeline.png();
  }
}
