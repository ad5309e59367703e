import { KEYWORD_MAX_CHARS } from '@renamer/contracts';
import { z } from 'zod';
import categoriesData from '../data/categories.json' with { type: 'json' };
import modifiersData from '../data/modifiers.json' with { type: 'json' };
import subjectsData from '../data/subjects.json' with { type: 'json' };
import { PREPOSITIONS } from './prepositions';

/** The kinds of modifier a long-tail phrase adds to a keyword, in the order English puts them before a noun. */
export const SLOTS = ['style', 'colour', 'material', 'place', 'use'] as const;
export type Slot = (typeof SLOTS)[number];

const Term = z
  .string()
  .min(2)
  .max(KEYWORD_MAX_CHARS)
  .regex(/^[a-z0-9'-]+(?: [a-z0-9'-]+)*$/, 'lowercase words separated by single spaces');
const SlotLists = z.object(Object.fromEntries(SLOTS.map((slot) => [slot, z.array(Term).optional()]))) as z.ZodType<
  Partial<Record<Slot, string[]>>
>;

const Categories = z.record(Term, SlotLists);
const Modifiers = z.object({
  colour: z.array(Term),
  material: z.array(Term),
  style: z.array(Term),
  /** Size, shape and age words: recognised (and kept from the stop-word list), never offered. */
  descriptors: z.array(Term),
});
const Subjects = z.array(
  z.object({
    term: Term,
    category: Term,
    related: z.array(Term).max(20),
    modifiers: SlotLists.optional(),
    /** When the plural is not the regular one (knives, shelves) or there is none (cutlery). */
    plural: Term.optional(),
  }),
);

export interface Subject {
  term: string;
  category: string;
  related: readonly string[];
  /** Its typical modifiers of each kind: its own list where the data gives one, else its category's. */
  modifiers: Readonly<Record<Slot, readonly string[]>>;
}

/** The curated English word lists, indexed for reading keywords. */
export interface Vocabulary {
  /** By every form a keyword may use: the term and its plural. */
  subjects: ReadonlyMap<string, Subject>;
  /** Each modifier (one or more words) with the slots it fills: "gold" is a colour and a material. */
  modifiers: ReadonlyMap<string, readonly Slot[]>;
  /** The most words a subject or a modifier has, for longest-first matching. */
  longestPhrase: number;
  /** Every word of the lists: the stop-word lists must not take these ("mug", "home" and "ring" are in some). */
  words: ReadonlySet<string>;
}

function regularPlural(term: string): string {
  if (/(?:s|x|z|ch|sh)$/.test(term)) return `${term}es`;
  if (/[^aeiou]y$/.test(term)) return `${term.slice(0, -1)}ies`;
  return `${term}s`;
}

function buildVocabulary(): Vocabulary {
  const categories = Categories.parse(categoriesData);
  const lists = Modifiers.parse(modifiersData);
  const subjectRows = Subjects.parse(subjectsData);

  const modifiers = new Map<string, Slot[]>();
  const note = (phrase: string, slot: Slot) => {
    const slots = modifiers.get(phrase) ?? [];
    if (!slots.includes(slot)) modifiers.set(phrase, [...slots, slot]);
  };
  for (const slot of ['colour', 'material', 'style'] as const) for (const phrase of lists[slot]) note(phrase, slot);
  for (const slotLists of [...Object.values(categories), ...subjectRows.map((row) => row.modifiers ?? {})]) {
    for (const slot of SLOTS) for (const phrase of slotLists[slot] ?? []) note(phrase, slot);
  }

  const subjects = new Map<string, Subject>();
  for (const row of subjectRows) {
    const category = categories[row.category];
    if (!category) throw new Error(`keywords data: ${row.term} names the unknown category ${row.category}`);
    const subject: Subject = {
      term: row.term,
      category: row.category,
      related: row.related,
      modifiers: Object.fromEntries(
        SLOTS.map((slot) => [slot, row.modifiers?.[slot] ?? category[slot] ?? []]),
      ) as Record<Slot, string[]>,
    };
    for (const form of new Set([row.term, row.plural ?? regularPlural(row.term)])) {
      if (subjects.has(form)) throw new Error(`keywords data: ${form} is listed twice`);
      subjects.set(form, subject);
    }
  }

  const phrases = [...subjects.keys(), ...modifiers.keys(), ...lists.descriptors].map((phrase) => phrase.split(' '));
  return {
    subjects,
    modifiers,
    longestPhrase: Math.max(...phrases.map((words) => words.length)),
    // "for the kitchen" follows a noun: its words are no reason to keep "for" and "the" as keywords.
    words: new Set(phrases.filter((words) => !PREPOSITIONS.has(words[0]!)).flat()),
  };
}

let english: Vocabulary | undefined;

/** Built once, on first use. */
export function englishVocabulary(): Vocabulary {
  english ??= buildVocabulary();
  return english;
}

/** The lists are English: another language's keywords are matched against nothing rather than misread. */
export const NO_VOCABULARY: Vocabulary = {
  subjects: new Map(),
  modifiers: new Map(),
  longestPhrase: 0,
  words: new Set(),
};

export const languageOf = (locale: string) => locale.split('-')[0]!.toLowerCase();

export const vocabularyFor = (locale: string): Vocabulary =>
  languageOf(locale) === 'en' ? englishVocabulary() : NO_VOCABULARY;
