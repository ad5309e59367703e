export { englishWords } from './english-words';
export { safeEntryName, uniqueEntryNames } from './entry-names';
export {
  DEFAULT_PROPOSAL_WORDS,
  FILENAME_REJECTIONS,
  type FilenameOptions,
  type FilenameRejection,
  type FilenameResult,
  MAX_STEM_LENGTH,
  normalizeFilename,
  originalAsFilename,
  type ProposalOptions,
  proposeFilename,
  UNNAMED_STEM,
} from './filename-rules';
export * from './formats';
export { languageOf, TRANSLITERATIONS, toAsciiWords } from './transliterate';
export * from './unique-filename';
export { isGenericWord, isStopWord, STOP_WORDS } from './vocabulary';
