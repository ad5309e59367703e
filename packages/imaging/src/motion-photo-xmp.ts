/** One media item of a Motion Photo's `Container:Directory`, in file order (the primary image first). */
export interface ContainerItem {
  mime: string;
  semantic: string;
  /** Bytes of the item; the primary image's is its JPEG, found by the walk, so it may be left out (0). */
  length: number;
  /** Bytes between the end of this item and the start of the next. */
  padding: number;
}

/** What a JPEG's XMP says lies after its image. */
export interface MotionPhotoXmp {
  /** `GCamera:MotionPhoto="1"` and its directory; `'invalid'` when a number in it is missing or not one. */
  directory?: readonly ContainerItem[] | 'invalid';
  /** `GCamera:MicroVideo="1"` (the older format): where the video starts, in bytes before the end of the file. */
  microVideoOffset?: number;
}

const XMP_SIGNATURE = 'http://ns.adobe.com/xap/1.0/\0';
const NAMESPACES = {
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  camera: 'http://ns.google.com/photos/1.0/camera/',
  container: 'http://ns.google.com/photos/1.0/container/',
  item: 'http://ns.google.com/photos/1.0/container/item/',
};
type Prefixes = Record<keyof typeof NAMESPACES, string | undefined>;

const escapeForRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');

/** The prefix each namespace is bound to in this packet: writers may choose any (`GCamera:` is common). */
function prefixesIn(packet: string): Prefixes {
  const bound = new Map<string, string>();
  for (const [, prefix, uri] of packet.matchAll(/xmlns:([A-Za-z_][\w.-]*)\s*=\s*["']([^"']*)["']/g)) {
    bound.set(uri!, prefix!);
  }
  const prefixOf = (uri: string) => bound.get(uri);
  return {
    rdf: prefixOf(NAMESPACES.rdf),
    camera: prefixOf(NAMESPACES.camera),
    container: prefixOf(NAMESPACES.container),
    item: prefixOf(NAMESPACES.item),
  };
}

/** A simple property written either way RDF allows: as an attribute or as an element with text. */
function property(text: string, prefix: string | undefined, name: string): string | undefined {
  if (!prefix) return undefined;
  const qualified = escapeForRegExp(`${prefix}:${name}`);
  const found =
    new RegExp(`[\\s<]${qualified}\\s*=\\s*(["'])(.*?)\\1`, 's').exec(text)?.[2] ??
    new RegExp(`<${qualified}>([^<]*)</${qualified}>`).exec(text)?.[1];
  return found?.trim();
}

const DIGITS = /^\d{1,15}$/;
const integer = (value: string | undefined) => (value !== undefined && DIGITS.test(value) ? Number(value) : undefined);

function readDirectory(packet: string, prefixes: Prefixes): readonly ContainerItem[] | 'invalid' | undefined {
  if (!prefixes.container) return undefined;
  const tag = escapeForRegExp(`${prefixes.container}:Directory`);
  const directory = new RegExp(`<${tag}[\\s>][\\s\\S]*?</${tag}>`).exec(packet)?.[0];
  if (!directory || !prefixes.rdf) return directory ? 'invalid' : undefined;
  const entries = directory.split(new RegExp(`<${escapeForRegExp(prefixes.rdf)}:li[\\s>]`)).slice(1);
  const items: ContainerItem[] = [];
  for (const entry of entries) {
    const semantic = property(entry, prefixes.item, 'Semantic') ?? '';
    const length = integer(property(entry, prefixes.item, 'Length') ?? (semantic === 'Primary' ? '0' : undefined));
    const padding = integer(property(entry, prefixes.item, 'Padding') ?? '0');
    if (length === undefined || padding === undefined) return 'invalid';
    items.push({ mime: property(entry, prefixes.item, 'Mime') ?? '', semantic, length, padding });
  }
  return items.length > 0 ? items : 'invalid';
}

/** The Motion Photo declarations of an APP1 payload; undefined unless it is the (standard) XMP packet. */
export function readMotionPhotoXmp(app1Payload: Buffer): MotionPhotoXmp | undefined {
  if (!app1Payload.subarray(0, XMP_SIGNATURE.length).equals(Buffer.from(XMP_SIGNATURE, 'latin1'))) return undefined;
  const packet = app1Payload.subarray(XMP_SIGNATURE.length).toString('utf8');
  const prefixes = prefixesIn(packet);
  const declared: MotionPhotoXmp = {};
  if (property(packet, prefixes.camera, 'MotionPhoto') === '1') {
    const directory = readDirectory(packet, prefixes);
    if (directory) declared.directory = directory;
  }
  if (property(packet, prefixes.camera, 'MicroVideo') === '1') {
    const offset = integer(property(packet, prefixes.camera, 'MicroVideoOffset'));
    if (offset !== undefined) declared.microVideoOffset = offset;
  }
  return declared;
}
