/** EXIF `2023:06:14 18:22:05` and XMP `2023-06-14T18:22:05+01:00`: the date, and the local time when given. */
const EXIF_OR_XMP_DATE = /^(\d{4})[:-](\d{2})[:-](\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?/;
/** No photograph is older than Niépce's: an earlier year is a clock that was never set. */
const FIRST_PHOTOGRAPH_YEAR = 1826;

/**
 * When the photo was taken, as the camera's clock said it: `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM:SS` in local time
 * (the zone is dropped: a filename or alt text says the day, not the instant). Unset clocks (`0000:00:00`) and
 * impossible dates give `undefined`.
 */
export function dateTaken(value: string): string | undefined {
  const match = EXIF_OR_XMP_DATE.exec(value.trim());
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second = '00'] = match;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  const valid =
    Number(year) >= FIRST_PHOTOGRAPH_YEAR &&
    date.getUTCMonth() === Number(month) - 1 &&
    date.getUTCDate() === Number(day);
  if (!valid) return undefined;
  const calendarDay = `${year}-${month}-${day}`;
  if (hour === undefined || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return calendarDay;
  return `${calendarDay}T${hour}:${minute}:${second}`;
}
