export { mayHoldText } from './text-gate';
export { createTextReader, type TextReader, type TextReaderOptions } from './text-reader';
