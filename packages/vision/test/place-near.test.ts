import { describe, expect, it } from 'vitest';
import { placeNear } from '../src/metadata';
import { reachKm } from '../src/metadata/place-near';

/** Coober Pedy (2,106 people) in the South Australian outback, at the gazetteer's coordinates. */
const COOBER_PEDY = { latitude: -29.01415, longitude: 134.75495 };
const KM_PER_DEGREE_LATITUDE = 111.2;

describe('placeNear', () => {
  it.each([
    ['Alfama, Lisbon', 38.7139, -9.1334, { city: 'Lisbon', country: 'Portugal' }],
    ['the Eiffel Tower', 48.8584, 2.2945, { city: 'Paris', country: 'France' }],
    ['Sintra', 38.8, -9.38, { city: 'Sintra', country: 'Portugal' }],
    ['the Golden Gate Bridge', 37.8199, -122.4783, { city: 'San Francisco', country: 'United States' }],
    [
      'Times Square, named after the borough rather than a neighbourhood',
      40.758,
      -73.9855,
      { city: 'Manhattan', country: 'United States' },
    ],
    ['Longyearbyen, far north', 78.2232, 15.6267, { city: 'Longyearbyen', country: 'Svalbard and Jan Mayen' }],
  ])('names %s', (_, latitude, longitude, place) => {
    expect(placeNear(latitude, longitude)).toEqual(place);
  });

  it.each([
    ['the middle of the Atlantic', 30, -40],
    ['Null Island (a GPS without a fix)', 0, 0],
    ['the North Pole', 89.9, 0],
    ['the South Pole', -89.9, 135],
    ['the summit of Everest', 27.9881, 86.925],
  ])('names no place in %s', (_, latitude, longitude) => {
    expect(placeNear(latitude, longitude)).toBeNull();
  });

  it('names no place for coordinates that are not on Earth', () => {
    expect(placeNear(Number.NaN, 10)).toBeNull();
    expect(placeNear(91, 10)).toBeNull();
  });

  it('finds a city across the wrapped longitude', () => {
    expect(placeNear(38.7139, -9.1334 + 360)).toEqual({ city: 'Lisbon', country: 'Portugal' });
  });

  it('names a small town within its reach and nothing beyond it', () => {
    const reach = reachKm(2106);
    expect(reach).toBeGreaterThan(4);
    expect(reach).toBeLessThan(6);
    const north = (km: number) => placeNear(COOBER_PEDY.latitude + km / KM_PER_DEGREE_LATITUDE, COOBER_PEDY.longitude);
    expect(north(3)).toEqual({ city: 'Coober Pedy', country: 'Australia' });
    expect(north(reach + 2)).toBeNull();
    expect(north(20)).toBeNull();
  });

  it('lets a big city reach further than a village, up to 50 km', () => {
    expect(reachKm(1000)).toBeCloseTo(4, 5);
    expect(reachKm(517_802)).toBeGreaterThan(30);
    expect(reachKm(8_000_000)).toBe(50);
  });
});
