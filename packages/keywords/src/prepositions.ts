/** Words after which a phrase goes on about something else: "mug for coffee lovers" is about a mug. */
export const PREPOSITIONS: ReadonlySet<string> = new Set(['for', 'with', 'in', 'on', 'at', 'by', 'from', 'of', 'over']);
