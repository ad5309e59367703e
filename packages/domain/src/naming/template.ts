import { AppError, MAX_TEMPLATE_LENGTH } from '@renamer/contracts';
import { MAX_STEM_LENGTH, originalAsFilename } from '../filename/filename-rules';
import { toAsciiWords } from '../filename/transliterate';
import { isGenericWord, isReservedName } from '../filename/vocabulary';
import { dateOf, type ImageFacts } from './image-facts';

/** `{seq:N}` pads to at most this many digits. */
const MAX_SEQ_DIGITS = 6;
/** Room `{subject}` needs for three plain words (`red-leather-shoes`, `horizontal-format-june`). */
const MIN_SUBJECT_ROOM = 24;

export const TEMPLATE_TOKENS = ['subject', 'keywords', 'place', 'date', 'camera', 'original', 'seq'] as const;
export type TemplateToken = (typeof TEMPLATE_TOKENS)[number];

const DATE_FORMATS = ['YYYY-MM-DD', 'YYYY-MM', 'YYYY'] as const;
type DateFormat = (typeof DATE_FORMATS)[number];

export type TemplatePart =
  | { kind: 'text'; text: string }
  | { kind: 'subject' }
  | { kind: 'keywords' | 'place' | 'camera' | 'original' }
  | { kind: 'date'; format: DateFormat }
  | { kind: 'seq'; digits: number };

export interface NamingTemplate {
  /** As the person wrote it. */
  text: string;
  parts: TemplatePart[];
}

export type TemplateParse = { ok: true; template: NamingTemplate } | { ok: false; problem: string };

/**
 * The template as it will be stored: unchanged when the rules accept it (null and undefined pass through), else
 * `invalid_template` with the problem, and with the field it came from.
 */
export function acceptedTemplate<T extends string | null | undefined>(text: T, locale: string): T {
  if (typeof text === 'string') parsedTemplate(text, locale);
  return text;
}

/** The template parsed, or `invalid_template` with the problem. */
export function parsedTemplate(text: string, locale: string): NamingTemplate {
  const parsed = parseTemplate(text, locale);
  if (parsed.ok) return parsed.template;
  throw new AppError('invalid_template', parsed.problem, [{ path: 'template', message: parsed.problem }]);
}

const TOKEN = /\{([^{}]*)\}/g;

/**
 * A naming template (`acme-{subject}-{seq:3}`): literal text and the tokens of `TEMPLATE_TOKENS`. Refused, with
 * the problem in words a person can act on: an unknown token, a brace left open, and a template that can never
 * give a valid name (too long even with the fewest words, or nothing but generic words and numbers).
 */
export function parseTemplate(text: string, locale: string): TemplateParse {
  if (text.trim() === '') return { ok: false, problem: 'The template is empty: use {subject} for the default.' };
  if (text.length > MAX_TEMPLATE_LENGTH) {
    return { ok: false, problem: `The template is longer than ${MAX_TEMPLATE_LENGTH} characters.` };
  }
  const parts: TemplatePart[] = [];
  let at = 0;
  for (const match of text.matchAll(TOKEN)) {
    if (match.index > at) parts.push({ kind: 'text', text: text.slice(at, match.index) });
    const token = tokenPart(match[1]!.trim());
    if (typeof token === 'string') return { ok: false, problem: token };
    parts.push(token);
    at = match.index + match[0].length;
  }
  if (at < text.length) parts.push({ kind: 'text', text: text.slice(at) });
  const stray = parts.find((part) => part.kind === 'text' && /[{}]/.test(part.text));
  if (stray) return { ok: false, problem: 'A brace is not closed or not opened: write tokens as {subject}.' };
  const template = { text, parts };
  const never = neverValid(template, locale);
  return never ? { ok: false, problem: never } : { ok: true, template };
}

function tokenPart(inner: string): TemplatePart | string {
  const [name = '', argument] = inner.split(':', 2).map((piece) => piece.trim());
  const known = `Known tokens: ${TEMPLATE_TOKENS.map((token) => `{${token}}`).join(', ')}.`;
  switch (name) {
    case 'subject':
    case 'keywords':
    case 'place':
    case 'camera':
    case 'original':
      return argument === undefined ? { kind: name } : `{${name}} takes no format: write {${name}}.`;
    case 'date': {
      const format = argument ?? 'YYYY-MM-DD';
      return (DATE_FORMATS as readonly string[]).includes(format)
        ? { kind: 'date', format: format as DateFormat }
        : `Unknown date format "${format}": use {date:YYYY-MM-DD}, {date:YYYY-MM} or {date:YYYY}.`;
    }
    case 'seq': {
      const digits = argument === undefined ? 1 : Number(argument);
      return Number.isInteger(digits) && digits >= 1 && digits <= MAX_SEQ_DIGITS
        ? { kind: 'seq', digits }
        : `{seq:N} pads to 1 to ${MAX_SEQ_DIGITS} digits: "${argument}" is not one of them.`;
    }
    default:
      return `Unknown token {${inner}}. ${known}`;
  }
}

/**
 * Why the template can never give a valid name, or null. Without `{subject}` a name is only as good as its
 * other words: literal text, numbers and dates alone are generic (`img-{seq}`), a reserved device name is
 * refused whatever the image; `{original}`, `{keywords}`, `{place}` and `{camera}` may still say something.
 */
function neverValid(template: NamingTemplate, locale: string): string | null {
  const fixed = template.parts.flatMap((part) => {
    if (part.kind === 'text') return toAsciiWords(part.text, locale);
    if (part.kind === 'seq') return ['1'.padStart(part.digits, '0')];
    if (part.kind === 'date') return SAMPLE_DATE[part.format];
    return [];
  });
  const hasSubject = template.parts.some((part) => part.kind === 'subject');
  const shortest = [...fixed, ...(hasSubject ? ['x'.repeat(MIN_SUBJECT_ROOM - 1)] : [])].join('-');
  if (shortest.length > MAX_STEM_LENGTH) {
    return `The template leaves no room for a name: its fixed text is ${fixed.join('-').length} characters of the ${MAX_STEM_LENGTH} a name may have.`;
  }
  if (hasSubject) return null;
  const mayName = template.parts.some((part) => ['keywords', 'place', 'camera', 'original'].includes(part.kind));
  if (mayName) return null;
  if (fixed.length === 0) return 'The template gives no words: use {subject}.';
  if (isReservedName(fixed.join('-'))) return `"${fixed.join('-')}" is a reserved device name.`;
  if (fixed.every((word) => isGenericWord(word, locale))) {
    return 'The template gives only generic words and numbers: add {subject} (or {original}, {keywords}, {place}).';
  }
  return null;
}

const SAMPLE_DATE: Readonly<Record<DateFormat, string[]>> = {
  'YYYY-MM-DD': ['2026', '01', '01'],
  'YYYY-MM': ['2026', '01'],
  YYYY: ['2026'],
};

/** What the tokens other than `{subject}` stand for in one image. */
export interface TokenValues {
  facts: ImageFacts;
  keywords: readonly string[];
  place: string | null;
  locale: string;
  format: Parameters<typeof originalAsFilename>[1]['format'];
}

/** The words of the parts before and after `{subject}` (all of them when it is absent), each token filled in. */
export function fixedWords(template: NamingTemplate, values: TokenValues): { before: string[]; after: string[] } {
  const before: string[] = [];
  const after: string[] = [];
  let seenSubject = false;
  for (const part of template.parts) {
    if (part.kind === 'subject') {
      seenSubject = true;
      continue;
    }
    (seenSubject ? after : before).push(...wordsOf(part, values));
  }
  return { before, after };
}

function wordsOf(part: Exclude<TemplatePart, { kind: 'subject' }>, values: TokenValues): string[] {
  const { facts, locale } = values;
  switch (part.kind) {
    case 'text':
      return toAsciiWords(part.text, locale);
    case 'keywords':
      return toAsciiWords(values.keywords.join(' '), locale);
    case 'place':
      return values.place ? toAsciiWords(values.place, locale) : [];
    case 'camera': {
      const { make = '', model = '' } = facts.camera ?? {};
      // Most models repeat their make (`Canon` / `Canon EOS R5`).
      const text = model.toLowerCase().startsWith(make.toLowerCase()) ? model : `${make} ${model}`;
      return toAsciiWords(text, locale);
    }
    case 'original': {
      const safe = originalAsFilename(facts.originalFilename, { format: values.format, locale });
      return safe.slice(0, safe.lastIndexOf('.')).split('-');
    }
    case 'date': {
      const date = dateOf(facts);
      if (!date) return [];
      return [date.year, date.month, date.day].slice(0, part.format.split('-').length);
    }
    case 'seq':
      return facts.seq ? [String(facts.seq).padStart(part.digits, '0')] : [];
  }
}
