export { ALT_TEXT_FORBIDDEN_PHRASES, type AltTextOptions, altText, MAX_ALT_TEXT_LENGTH } from './alt-text';
export { isCameraMadeFilename } from './camera-filename';
export { MIN_NAME_WORDS } from './compose-words';
export { hashDistance, isPerceptualHash } from './hash-distance';
export { dateOf, frameWords, type ImageFacts } from './image-facts';
export {
  type BatchItem,
  type BatchNamingOptions,
  NEAR_DUPLICATE_DISTANCE,
  nameBatch,
  SAME_SUBJECT_DISTANCE,
} from './name-batch';
export { fixedWordsOf, type NameShape, plainShape, sharedPrefix, uniqueShape } from './name-shape';
export { type PersonWords, personTags } from './person-tags';
export { type NameOptions, type NameProposal, proposeName } from './propose-name';
export { type ScoreOptions, SEO_WEIGHTS, scoreFilename } from './seo-score';
export { type ShotFacts, shotKey } from './shot-pairs';
export { NAME_SIGNALS, type SignalPolicy, type SignalRole } from './signals';
export {
  type BatchWords,
  namingTags,
  type PlannedProposal,
  type ProposeRequest,
  planProposals,
  proposalTargets,
  type StoredImage,
  storedFacts,
} from './stored-proposals';
export {
  acceptedTemplate,
  fixedWords,
  type NamingTemplate,
  parsedTemplate,
  parseTemplate,
  TEMPLATE_TOKENS,
  type TemplateParse,
  type TemplateToken,
} from './template';
