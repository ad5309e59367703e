export { type CheckedKeyword, checkKeywords, isRefused, KEYWORD_ISSUES, type KeywordIssue } from './keyword-check';
export { createLocalKeywordProvider } from './local-provider';
export type { KeywordProvider } from './provider';
