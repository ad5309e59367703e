// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import '../../test/render';
import { defaultLocale, ensureSupportedNavigatorLocale, supportedLocale } from './locale';

/** A POSIX-locale Linux desktop's or a headless browser's language: no BCP 47 tag, so Intl refuses it. */
const POSIX = 'en-US@posix';

afterEach(() => {
  // Back to jsdom's own navigator.language and languages (the prototype's getters).
  Reflect.deleteProperty(navigator, 'language');
  Reflect.deleteProperty(navigator, 'languages');
});

describe('locale tags for Intl', () => {
  it('keeps a tag Intl takes, in its canonical form, and gives the default locale for one it refuses', () => {
    expect(() => new Intl.NumberFormat(POSIX)).toThrow(RangeError);
    expect(supportedLocale('de-de')).toBe('de-DE');
    expect(supportedLocale('fr')).toBe('fr');
    expect(supportedLocale(POSIX)).toBe(defaultLocale());
    expect(supportedLocale(POSIX, 'en-US')).toBe('en-US');
    expect(supportedLocale('')).toBe(defaultLocale());
    expect(supportedLocale(undefined)).toBe(defaultLocale());
    for (const tag of [POSIX, 'de-de', 'x', ''])
      expect(() => new Intl.NumberFormat(supportedLocale(tag))).not.toThrow();
  });

  it('leaves a navigator whose tags Intl takes as it is', () => {
    const source = { language: 'de-DE', languages: ['de-DE', 'en'] };
    ensureSupportedNavigatorLocale(source);
    expect(source).toEqual({ language: 'de-DE', languages: ['de-DE', 'en'] });
  });

  it('shadows a refused navigator.language, keeping the languages Intl takes after it', () => {
    const source = { language: POSIX, languages: [POSIX, 'fr-fr', 'not a tag'] };
    ensureSupportedNavigatorLocale(source);
    expect(source.language).toBe(defaultLocale());
    expect(source.languages).toEqual([...new Set([defaultLocale(), 'fr-FR'])]);
  });

  it('lets the dashboard’s chart library load and format numbers in a browser that reports en-US@posix', async () => {
    Object.defineProperty(navigator, 'language', { value: POSIX, configurable: true });
    Object.defineProperty(navigator, 'languages', { value: [POSIX], configurable: true });
    // uPlot builds its number formatter from navigator.language as its module loads: the module imported first,
    // as analytics.tsx and main.tsx do, makes the tag one Intl takes.
    await import('./supported-navigator-locale');
    expect(navigator.language).toBe(defaultLocale());
    const { default: uPlot } = await import('uplot');
    expect(uPlot.fmtNum(1234.5)).toBe(new Intl.NumberFormat(defaultLocale()).format(1234.5));
  });
});
