/** Text matched literally inside a LIKE pattern: `%`, `_` and `\` lose their meaning. */
export function escapeLikePattern(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
