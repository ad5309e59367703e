import { z } from 'zod';
import { SingleLineText } from './text';

/** Every flag the services read, with its value on a fresh database and what it switches. */
export const FEATURE_FLAGS = {
  'uploads-enabled': {
    default: true,
    description: 'Uploads are accepted; off, POST /api/batch answers 503 uploads_disabled.',
  },
  'llm-analysis': {
    default: true,
    description: 'The worker asks the configured vision-language model for names, tags and alt text.',
  },
  'llm-keywords': {
    default: true,
    description: 'Keyword enhancement and suggestions ask the configured language model.',
  },
  'embed-metadata': {
    default: true,
    description: 'Downloads with embed=true write the SEO metadata into the copies; off, they serve the originals.',
  },
  'refuse-unsafe-images': {
    default: false,
    description: 'The worker fails, for good, every image its safety step judges unsafe.',
  },
} as const satisfies Record<string, { default: boolean; description: string }>;

export type FeatureFlagKey = keyof typeof FEATURE_FLAGS;
export const FEATURE_FLAG_KEYS = Object.keys(FEATURE_FLAGS) as [FeatureFlagKey, ...FeatureFlagKey[]];
export const isFeatureFlagKey = (key: string): key is FeatureFlagKey => Object.hasOwn(FEATURE_FLAGS, key);

export const FeatureFlagView = z.object({
  key: z.enum(FEATURE_FLAG_KEYS),
  enabled: z.boolean(),
  default: z.boolean().describe('Its value until an operator sets it.'),
  description: z.string(),
  updatedAt: z.iso.datetime().nullable().describe('When an operator last set it; null while it has its default.'),
});
export type FeatureFlagView = z.infer<typeof FeatureFlagView>;

export const FeatureFlagList = z.object({ items: z.array(FeatureFlagView) });

export const FeatureFlagParams = z.object({ key: z.string().max(100) });

export const UpdateFeatureFlagBody = z.object({
  enabled: z.boolean(),
  description: SingleLineText.min(1).max(500).optional().describe('Replaces the flag’s description when given.'),
});
