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
export * from './unique-filename';
