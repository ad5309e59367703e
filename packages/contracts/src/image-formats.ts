/**
 * The one table of the image formats an upload accepts. Everything else that names formats is derived from it:
 * the format enum and the file pickers' extensions here, the extensions of renamed files (domain), the sniffed
 * types, the declared types that agree with them and the structure walks (imaging), the size limit and the
 * refusal's words (the upload), the file picker of the CLI, the OpenAPI description of the upload's `files` and
 * what `?embed=true` writes (delivery). `image-formats.test.ts` fails when one of them disagrees with it.
 */

/**
 * How the first bytes announce a format. Formats of one family share a signature and are told apart by a second
 * look: a TIFF's first IFD (DNG, CR2, NEF and ARW are TIFFs), an ISO-BMFF file's brands (AVIF, HEIC and CR3 all
 * start with an `ftyp` box). ORF and RW2 are TIFF-like under signatures of their own, RAF has its own header.
 */
export type SignatureFamily = 'jpeg' | 'png' | 'riff' | 'gif' | 'isobmff' | 'tiff' | 'orf' | 'rw2' | 'raf';

/** Which configured size limit applies: `UPLOAD_MAX_FILE_BYTES`, or `UPLOAD_MAX_RAW_BYTES` for camera RAW. */
export type SizeLimit = 'image' | 'camera-raw';

/**
 * What `?embed=true` does to a download: writes the SEO fields into a copy as IPTC and XMP, or as XMP alone (the
 * format holds no IPTC), or beside the untouched file in an XMP sidecar (camera RAW is never rewritten), or nothing
 * (the file goes out as uploaded: exiftool is not asked to write HEIC).
 */
export type Embedding = 'iptc-xmp' | 'xmp' | 'xmp-sidecar' | 'none';

export interface ImageFormatFacts {
  /** How documents and messages name it. */
  label: string;
  /** The media types the bytes are sniffed as, the usual one first; the sniffed one is stored and reported. */
  mimeTypes: readonly [string, ...string[]];
  /** Other names clients declare it by; a declared type agrees with the bytes when both name one format. */
  declaredAliases: readonly string[];
  /** The file name extensions people use for it; a renamed file gets the first. */
  extensions: readonly [string, ...string[]];
  signature: SignatureFamily;
  sizeLimit: SizeLimit;
  /** Camera RAW: checked and analysed through the full-size JPEG preview it embeds, delivered as uploaded. */
  cameraRaw: boolean;
  /** Where the pixels of its preview (and of its analysis) come from: the decoded image, or the embedded JPEG. */
  preview: 'decoded' | 'embedded-jpeg';
  embedding: Embedding;
  /** Every current browser shows the file itself in an `<img>`, so the review's zoom can show its own pixels. */
  shownByBrowsers: boolean;
}

const picture = { sizeLimit: 'image', cameraRaw: false, preview: 'decoded', shownByBrowsers: true } as const;
const cameraRaw = {
  sizeLimit: 'camera-raw',
  cameraRaw: true,
  preview: 'embedded-jpeg',
  embedding: 'xmp-sidecar',
  declaredAliases: [],
  shownByBrowsers: false,
} as const;

export const IMAGE_FORMAT_TABLE = {
  jpeg: {
    ...picture,
    label: 'JPEG',
    mimeTypes: ['image/jpeg'],
    declaredAliases: ['image/jpg', 'image/pjpeg'],
    extensions: ['jpg', 'jpeg', 'jpe', 'jfif'],
    signature: 'jpeg',
    embedding: 'iptc-xmp',
  },
  png: {
    ...picture,
    label: 'PNG',
    mimeTypes: ['image/png'],
    declaredAliases: ['image/x-png'],
    extensions: ['png'],
    signature: 'png',
    embedding: 'iptc-xmp',
  },
  webp: {
    ...picture,
    label: 'WebP',
    mimeTypes: ['image/webp'],
    declaredAliases: [],
    extensions: ['webp'],
    signature: 'riff',
    embedding: 'xmp',
  },
  gif: {
    ...picture,
    label: 'GIF',
    mimeTypes: ['image/gif'],
    declaredAliases: [],
    extensions: ['gif'],
    signature: 'gif',
    embedding: 'xmp',
  },
  avif: {
    ...picture,
    label: 'AVIF',
    mimeTypes: ['image/avif'],
    declaredAliases: [],
    extensions: ['avif'],
    signature: 'isobmff',
    embedding: 'xmp',
  },
  tiff: {
    ...picture,
    label: 'TIFF',
    mimeTypes: ['image/tiff'],
    declaredAliases: ['image/tif'],
    extensions: ['tif', 'tiff'],
    signature: 'tiff',
    embedding: 'iptc-xmp',
    shownByBrowsers: false,
  },
  // One container, named either way by browsers and phones; the brands and the decoder tell it from AVIF.
  heic: {
    ...picture,
    label: 'HEIC',
    mimeTypes: ['image/heic', 'image/heif'],
    declaredAliases: [],
    extensions: ['heic', 'heif'],
    signature: 'isobmff',
    embedding: 'none',
    shownByBrowsers: false,
  },
  // Camera RAW: the types are the usual names (none is registered).
  dng: {
    ...cameraRaw,
    label: 'DNG',
    mimeTypes: ['image/x-adobe-dng'],
    declaredAliases: ['image/dng', 'image/x-dng'],
    extensions: ['dng'],
    signature: 'tiff',
  },
  cr2: { ...cameraRaw, label: 'CR2', mimeTypes: ['image/x-canon-cr2'], extensions: ['cr2'], signature: 'tiff' },
  cr3: { ...cameraRaw, label: 'CR3', mimeTypes: ['image/x-canon-cr3'], extensions: ['cr3'], signature: 'isobmff' },
  nef: { ...cameraRaw, label: 'NEF', mimeTypes: ['image/x-nikon-nef'], extensions: ['nef'], signature: 'tiff' },
  arw: { ...cameraRaw, label: 'ARW', mimeTypes: ['image/x-sony-arw'], extensions: ['arw'], signature: 'tiff' },
  orf: { ...cameraRaw, label: 'ORF', mimeTypes: ['image/x-olympus-orf'], extensions: ['orf'], signature: 'orf' },
  raf: {
    ...cameraRaw,
    label: 'RAF',
    mimeTypes: ['image/x-fujifilm-raf'],
    declaredAliases: ['image/x-fuji-raf'],
    extensions: ['raf'],
    signature: 'raf',
  },
  rw2: {
    ...cameraRaw,
    label: 'RW2',
    mimeTypes: ['image/x-panasonic-rw2'],
    declaredAliases: ['image/x-panasonic-raw'],
    extensions: ['rw2'],
    signature: 'rw2',
  },
} as const satisfies Record<string, ImageFormatFacts>;

type Table = typeof IMAGE_FORMAT_TABLE;
export type ImageFormatName = keyof Table;
/** Every format's facts, in the table's order. */
export const IMAGE_FORMAT_ENTRIES = Object.entries(IMAGE_FORMAT_TABLE) as {
  [F in ImageFormatName]: [F, Table[F]];
}[ImageFormatName][];

/** The media types each format's bytes are sniffed as. */
export type ImageMimeType = Table[ImageFormatName]['mimeTypes'][number];
/** Camera RAW formats: analysed through the full-size JPEG preview each one embeds, delivered as uploaded. */
export type RawFormat = { [F in ImageFormatName]: Table[F]['cameraRaw'] extends true ? F : never }[ImageFormatName];

/** `JPEG, PNG or GIF`: labels as a sentence lists them. */
export function listInWords(labels: readonly string[]): string {
  return labels.length < 2 ? labels.join('') : `${labels.slice(0, -1).join(', ')} or ${labels.at(-1)}`;
}

const labelsWhere = (keep: (facts: ImageFormatFacts) => boolean) =>
  IMAGE_FORMAT_ENTRIES.filter(([, facts]) => keep(facts)).map(([, facts]) => facts.label);

/**
 * The accepted formats in words: `JPEG, PNG, WebP, GIF, AVIF, TIFF or HEIC`, the camera RAW ones, and those browsers
 * show as they are.
 */
export const IMAGE_FORMATS_IN_WORDS = {
  pictures: listInWords(labelsWhere((facts) => !facts.cameraRaw)),
  cameraRaw: listInWords(labelsWhere((facts) => facts.cameraRaw)),
  shownByBrowsers: listInWords(labelsWhere((facts) => facts.shownByBrowsers)),
} as const;
