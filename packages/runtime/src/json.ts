/** The value `text` holds as JSON, or undefined when it holds none (for messages from outside, checked next). */
export function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
