/** The analysis steps an operator can leave out (`ANALYSIS_STEPS`); the file header is always read. */
export const OPTIONAL_STEPS = ['file-metadata', 'pixels', 'objects', 'text', 'safety', 'llm'] as const;
export type OptionalStep = (typeof OPTIONAL_STEPS)[number];
