/** The confidence of a tag whose statistic sits exactly on its threshold; every source of the pixels uses it. */
const THRESHOLD_CONFIDENCE = 0.5;

/**
 * Maps how far a statistic is past its threshold to a confidence: `THRESHOLD_CONFIDENCE` at the threshold,
 * rising linearly to 1 at `certainAt` (and staying there). Callers say nothing below the threshold.
 */
export function confidenceBeyond(value: number, threshold: number, certainAt: number): number {
  const progress = Math.min(1, Math.max(0, (value - threshold) / (certainAt - threshold)));
  return Math.round((THRESHOLD_CONFIDENCE + (1 - THRESHOLD_CONFIDENCE) * progress) * 1000) / 1000;
}
