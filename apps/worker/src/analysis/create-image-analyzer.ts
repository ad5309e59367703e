import { metadataStep } from './metadata-step';
import { createStepPipeline } from './step-pipeline';

/** The production analyser: today the file's header; the image-intelligence steps join this list. */
export const createImageAnalyzer = () => createStepPipeline([metadataStep]);
