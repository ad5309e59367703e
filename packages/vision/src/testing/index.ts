export { type FixturePhoto, tuningPhotos, unseenPhotos } from './fixture-photos';
export { judgeFilenameWords, judgeWords, type WordJudgement } from './judge-words';
export { metadataPhoto, type WrittenMetadata } from './metadata-photo';
export { strippedCopies, strippedCopy } from './stripped-copy';
