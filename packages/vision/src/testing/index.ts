export { type FixturePhoto, tuningPhotos, unseenPhotos } from './fixture-photos';
export {
  judgeFilenameWords,
  judgeSubjects,
  judgeWords,
  NOT_SUBJECT_WORDS,
  type SubjectJudgement,
  type WordJudgement,
} from './judge-words';
export { metadataPhoto, type WrittenMetadata } from './metadata-photo';
export { strippedCopies, strippedCopy } from './stripped-copy';
