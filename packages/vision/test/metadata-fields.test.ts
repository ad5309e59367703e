import { describe, expect, it } from 'vitest';
import { cameraName } from '../src/metadata/camera-name';
import { dateTaken } from '../src/metadata/date-taken';

describe('dateTaken', () => {
  it.each([
    ['2023:06:14 18:22:05', '2023-06-14T18:22:05'],
    ['2023:06:14 18:22:05.123+01:00', '2023-06-14T18:22:05'],
    ['2023-06-14T18:22+01:00', '2023-06-14T18:22:00'],
    ['2019:12:01', '2019-12-01'],
    ['2024:02:29 25:00:00', '2024-02-29'],
  ])('%s → %s', (value, expected) => {
    expect(dateTaken(value)).toBe(expected);
  });

  it.each(['0000:00:00 00:00:00', '2023:02:30 10:00:00', '2023:13:01', '1700:01:01', '2023', 'yesterday'])(
    'gives nothing for %s',
    (value) => {
      expect(dateTaken(value)).toBeUndefined();
    },
  );
});

describe('cameraName', () => {
  it.each<[string | undefined, string | undefined, string | undefined]>([
    ['OLYMPUS IMAGING CORP.', 'E-M10', 'OLYMPUS E-M10'],
    ['EASTMAN KODAK COMPANY', 'KODAK EASYSHARE C340 ZOOM DIGITAL CAMERA', 'KODAK EASYSHARE C340 ZOOM DIGITAL CAMERA'],
    ['Canon', 'Canon EOS 70D', 'Canon EOS 70D'],
    ['SAMSUNG', undefined, 'SAMSUNG'],
    [undefined, 'Pixel 7', 'Pixel 7'],
    ['  ', ' ', undefined],
  ])('%s + %s → %s', (make, model, expected) => {
    expect(cameraName(make, model)).toBe(expected);
  });
});
