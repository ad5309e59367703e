import { stringify } from 'csv-stringify/sync';

/**
 * RFC 4180 CSV: CRLF line ends, fields with a comma, quote or line break quoted, quotes doubled. A cell starting
 * with = + - @ or a tab gets a leading ' so a spreadsheet shows it instead of running it as a formula (alt text
 * and keywords come from the analyser, which reads text in the pictures).
 */
export function toCsv(header: string[], rows: (string | number)[][], options: { bom: boolean }): string {
  return stringify([header, ...rows], { record_delimiter: 'windows', escape_formulas: true, bom: options.bom });
}
