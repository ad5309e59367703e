import { type SniffedType, sniffedAs } from './sniffed-type';

const AVIF_BRANDS = new Set(['avif', 'avis']);
const HEIC_BRANDS = new Set(['heic', 'heix']);

/** The major brand and the compatible brands of the leading `ftyp` box. */
function brandsOf(head: Buffer): string[] {
  if (head.length < 16 || head.toString('latin1', 4, 8) !== 'ftyp') return [];
  const boxEnd = Math.min(head.readUInt32BE(0), head.length);
  const brands = [head.toString('latin1', 8, 12)];
  for (let offset = 16; offset + 4 <= boxEnd; offset += 4) brands.push(head.toString('latin1', offset, offset + 4));
  return brands;
}

/**
 * A HEIF file whose major brand is the generic `mif1` says what it holds in its compatible brands:
 * an AVIF written that way stays AVIF, a HEVC-coded one is HEIC. undefined when the brands say neither.
 */
export function brandedIsobmffType(head: Buffer): SniffedType | undefined {
  const brands = brandsOf(head);
  if (brands.some((brand) => HEIC_BRANDS.has(brand))) return sniffedAs('heic');
  if (brands.some((brand) => AVIF_BRANDS.has(brand))) return sniffedAs('avif');
  return undefined;
}
