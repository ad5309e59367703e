/** What a script reads from the exit code: done, failed, wrong usage, or done in part. */
export const EXIT = { done: 0, failure: 1, usage: 2, partly: 3 } as const;

/** An error the user can act on: printed as one line (with the API's problem code), with its exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failure,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** The one line printed for an error: `renamer: <what happened> (<code>)`. */
export function errorLine(error: unknown): string {
  if (error instanceof CliError) return `renamer: ${error.message}${error.code ? ` (${error.code})` : ''}`;
  if (error instanceof Error) return `renamer: ${error.message}`;
  return `renamer: ${String(error)}`;
}
