/** Characters Windows refuses in a file name, besides separators and control characters. */
const UNSAFE = /[\p{Cc}\p{Cf}<>:"|?*\\/]/gu;
const FALLBACK_STEM = 'image';

/**
 * One path segment that extracts where it is meant to on any system: no separator (so no directory, no `..`
 * climbing, no absolute path), no drive letter or stream (`:`), no control or bidirectional characters, and no
 * dot or space at either end (Windows drops trailing ones; a leading dot hides the file).
 */
export function safeEntryName(name: string): string {
  const cleaned = name
    .normalize('NFC')
    .replace(UNSAFE, '-')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  return cleaned.length > 0 ? cleaned : FALLBACK_STEM;
}

/**
 * Archive entry names, in order: each made safe, then numbered (`name-2.jpg`, `name-3.jpg`) where it would
 * repeat an earlier one. Names are compared without case, as Windows and macOS file systems do.
 */
export function uniqueEntryNames(names: readonly string[], reserved: readonly string[] = []): string[] {
  const taken = new Set(reserved.map((name) => name.toLowerCase()));
  return names.map((name) => {
    const safe = safeEntryName(name);
    const dot = safe.lastIndexOf('.');
    const [stem, extension] = dot > 0 ? [safe.slice(0, dot), safe.slice(dot)] : [safe, ''];
    let candidate = safe;
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem}-${n}${extension}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}
