const ALIASES: Readonly<Record<string, string>> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/x-png': 'image/png',
  'image/tif': 'image/tiff',
  // One container, named either way by browsers and phones; the brands and the decoder tell them apart.
  'image/heif': 'image/heic',
  'image/dng': 'image/x-adobe-dng',
  'image/x-dng': 'image/x-adobe-dng',
  'image/x-fuji-raf': 'image/x-fujifilm-raf',
  'image/x-panasonic-raw': 'image/x-panasonic-rw2',
};

const UNSPECIFIC = new Set(['', 'application/octet-stream']);

function essence(mediaType: string): string {
  const bare = mediaType.split(';', 1)[0]!.trim().toLowerCase();
  return ALIASES[bare] ?? bare;
}

/**
 * Whether the client's declared Content-Type agrees with the sniffed one. A missing, empty or
 * `application/octet-stream` declaration agrees with anything: curl, scripts and some browsers send
 * exactly that for files they do not recognise, and it claims nothing that could contradict the
 * bytes, which were sniffed and are fully checked anyway.
 */
export function declaredTypeAgrees(declared: string | undefined, sniffed: string): boolean {
  if (declared === undefined) return true;
  const declaredEssence = essence(declared);
  return UNSPECIFIC.has(declaredEssence) || declaredEssence === essence(sniffed);
}
