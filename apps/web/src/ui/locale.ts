/**
 * Locale tags as Intl takes them. A browser may report a tag Intl refuses: `en-US@posix` on a POSIX-locale Linux
 * desktop or in a headless browser, and `new Intl.NumberFormat('en-US@posix')` throws "Invalid language tag".
 * Every tag the app hands to Intl, or lets a library read from `navigator`, goes through here first. (Formatting
 * with no tag, `toLocaleString()`, takes the runtime's own default locale, which Intl always accepts.)
 */

/** The runtime's default locale: the one Intl picks when given none, so always one it accepts. */
export const defaultLocale = (): string => new Intl.NumberFormat().resolvedOptions().locale;

/** `tag` in Intl's canonical form (`de-de` → `de-DE`), or `fallback` where Intl refuses it or there is none. */
export function supportedLocale(tag: string | undefined, fallback: string = defaultLocale()): string {
  if (!tag) return fallback;
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? fallback;
  } catch {
    return fallback;
  }
}

const accepted = (tag: string) => supportedLocale(tag, '') !== '';

/** What `navigator` says of the person's languages; a parameter so that tests can give their own. */
type LanguageSource = { readonly language: string; readonly languages: readonly string[] };

/**
 * Where Intl refuses the tags `navigator` reports, shadows `navigator.language` and `navigator.languages` with ones it
 * takes (the browser's own, canonical, or the runtime's default), so that a library reading them itself cannot throw:
 * uPlot, the dashboard's chart, builds its number formatter from `navigator.language` as its module loads. Run before
 * such a library loads (`supported-navigator-locale.ts` does, as a module imported first).
 */
export function ensureSupportedNavigatorLocale(source: LanguageSource = navigator): void {
  if (accepted(source.language) && source.languages.every(accepted)) return;
  const language = supportedLocale(source.language);
  const languages = [...new Set([language, ...source.languages.filter(accepted).map((tag) => supportedLocale(tag))])];
  Object.defineProperties(source, {
    language: { value: language, configurable: true, enumerable: true },
    languages: { value: Object.freeze(languages), configurable: true, enumerable: true },
  });
}
