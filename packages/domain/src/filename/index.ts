export {
  DEFAULT_PROPOSAL_WORDS,
  type FilenameOptions,
  type FilenameRejection,
  type FilenameResult,
  MAX_STEM_LENGTH,
  normalizeFilename,
  type ProposalOptions,
  proposeFilename,
} from './filename-rules';
export * from './formats';
export * from './unique-filename';
