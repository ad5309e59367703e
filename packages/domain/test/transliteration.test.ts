import { describe, expect, it } from 'vitest';
import { isStopWord, normalizeFilename, STOP_WORDS, TRANSLITERATIONS, toAsciiWords } from '../src';

describe('transliteration by locale', () => {
  it.each<[string, string, string]>([
    ['en', 'Crème brûlée café', 'creme-brulee-cafe'],
    ['de', 'Grüße aus München', 'gruesse-aus-muenchen'],
    ['de-AT', 'Österreich Küche', 'oesterreich-kueche'],
    ['fr', 'Bœuf à la crème', 'boeuf-a-la-creme'],
    ['fr', "L'eau de l'étang", 'l-eau-de-l-etang'],
    ['fr-CA', 'Cœur d’érable', 'coeur-d-erable'],
    ['es', 'Niño en la montaña', 'nino-en-la-montana'],
    ['pt-BR', 'Pão de açúcar, São João', 'pao-de-acucar-sao-joao'],
    ['it', "Caffè dell'arte", 'caffe-dell-arte'],
    ['nl', 'Ĳsselmeer café', 'ijsselmeer-cafe'],
    ['pl', 'Łódź żółć gęś', 'lodz-zolc-ges'],
    ['sv', 'Smörgåsbord på ängen', 'smorgasbord-pa-angen'],
    ['da', 'Smørrebrød på Ærø', 'smoerrebroed-paa-aeroe'],
    ['nb', 'Blåbær fra Tromsø', 'blaabaer-fra-tromsoe'],
    ['tr', 'Işık ve İstanbul çarşı, dağ', 'isik-ve-istanbul-carsi-dag'],
    ['tr', 'Kırmızı ŞAPKA', 'kirmizi-sapka'],
    ['en', 'Smørrebrød Æbleskiver Œuvre Łódź', 'smorrebrod-aebleskiver-oeuvre-lodz'],
  ])('%s: %s → %s', (locale, text, stem) => {
    expect(toAsciiWords(text, locale).join('-')).toBe(stem);
  });

  it('writes every letter of each table as plain lowercase ASCII', () => {
    for (const [language, letters] of Object.entries(TRANSLITERATIONS)) {
      for (const [letter, ascii] of Object.entries(letters)) {
        expect(ascii, `${language} ${letter}`).toMatch(/^[a-z]+$/);
        expect(toAsciiWords(letter, language), `${language} ${letter}`).toEqual([ascii]);
      }
    }
  });

  it('has stop words for each supported language, spelled as filenames spell them', () => {
    for (const language of ['en', 'de', 'fr', 'es', 'pt', 'it', 'nl', 'pl', 'sv', 'tr']) {
      const words = STOP_WORDS[language];
      expect(words?.size, language).toBeGreaterThan(5);
      for (const word of words ?? []) expect(toAsciiWords(word, language), `${language} ${word}`).toEqual([word]);
    }
  });

  it.each<[string, string, string]>([
    ['fr', 'la tasse de café', 'tasse-de-cafe'],
    ['es', 'el perro con la pelota', 'perro-con-la-pelota'],
    ['pt', 'o gato na janela', 'gato-na-janela'],
    ['it', 'il gatto sul divano', 'gatto-sul-divano'],
    ['nl', 'de kat op het dak', 'kat-op-het-dak'],
    ['pl', 'kot na kanapie w', 'kot-na-kanapie'],
    ['sv', 'en katt på soffan', 'katt-pa-soffan'],
    ['tr', 'bir kedi ve', 'kedi'],
  ])('%s trims its own stop words from the ends: %s', (locale, text, stem) => {
    expect(normalizeFilename(text, { format: 'jpeg', locale })).toMatchObject({ ok: true, stem });
  });

  it('keeps a word that is a stop word only in another language', () => {
    expect(isStopWord('die', 'en')).toBe(false);
    expect(isStopWord('die', 'de')).toBe(true);
    expect(isStopWord('de', 'nl')).toBe(true);
    expect(normalizeFilename('die cast model', { format: 'jpeg', locale: 'en' })).toMatchObject({
      stem: 'die-cast-model',
    });
  });
});
