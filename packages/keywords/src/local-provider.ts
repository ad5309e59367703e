import { enhanceKeywords } from './enhance';
import { usableKeywords } from './keyword-check';
import type { KeywordProvider } from './provider';
import { suggestKeywords } from './suggest';
import { vocabularyFor } from './vocabulary';

/** The keyword engine that runs everywhere: curated word lists, deterministic, no network. */
export function createLocalKeywordProvider(): KeywordProvider {
  return {
    name: 'local',
    async enhance({ keywords, context, locale }) {
      return enhanceKeywords(usableKeywords(keywords, locale), context, locale, vocabularyFor(locale));
    },
    async suggest({ tags, text, locale }) {
      return suggestKeywords(tags, text, locale);
    },
  };
}
