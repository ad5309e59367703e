const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** Where ICU's English name is a disambiguation or an official long form rather than the name people write. */
const PLAIN_NAMES: Readonly<Record<string, string>> = {
  CD: 'Democratic Republic of the Congo',
  CG: 'Republic of the Congo',
  CC: 'Cocos Islands',
  HK: 'Hong Kong',
  MO: 'Macao',
  MM: 'Myanmar',
};

/** `PT` → `Portugal`, from the ICU data Node ships (no extra dependency); `&` is written `and`. */
export function countryName(code: string): string {
  const name = PLAIN_NAMES[code] ?? regionNames.of(code) ?? code;
  return name.replaceAll(' & ', ' and ');
}
