import { IMAGE_FORMATS_IN_WORDS } from '@renamer/contracts';
import { ApiProblem } from '../api/client';

/** What each problem code means to a person, and what to do next; the server's detail says the particulars. */
const NEXT_STEP: Record<string, string> = {
  network: 'The server cannot be reached. Check your connection; this page retries by itself.',
  unauthenticated: 'You are signed out. Sign in again to go on.',
  forbidden: 'This is not allowed for your account.',
  banned: 'This account is suspended. Contact support if you think this is a mistake.',
  not_found: 'It no longer exists, or it is not yours. Go back and reload the list.',
  validation_failed: 'Correct the highlighted value and try again.',
  invalid_filename: 'Choose another name.',
  invalid_keywords: 'Change or remove the keywords named.',
  invalid_template: 'Change the template: use only the tokens listed, around words that can make a name.',
  invalid_webhook_url: 'Use an https address your server answers on the public internet.',
  unsupported_media_type: `Upload a photo (${IMAGE_FORMATS_IN_WORDS.pictures}, or camera RAW).`,
  file_too_large: 'Upload a smaller file.',
  unsafe_file: 'The file is not a clean image; export it again from your photo app.',
  duplicate_file: 'It is already in your account.',
  too_many_files: 'Send fewer files at a time.',
  quota_exceeded: 'Your monthly quota is used up: upgrade on the Plans page, or wait for next month.',
  conflict: 'Something changed meanwhile. Reload and try again.',
  filename_conflict: 'Another image of the batch has this name; choose another.',
  link_expired: 'The link has expired. Ask for a new download.',
  rate_limited: 'Too many requests at once. Wait a moment and try again.',
  payments_not_configured: 'Payments are not set up on this server; plans can be changed by an operator.',
  uploads_disabled: 'Uploads are paused by the operators for a short while. Try again later.',
  unavailable: 'A part of the service is not answering. Try again in a few seconds.',
  internal: 'Something went wrong on our side. Try again; if it persists, contact support with the time.',
};

/** What to do next about a problem with this code, if there is something to say. */
export const nextStep = (code: string): string | undefined => NEXT_STEP[code];

/** A problem as a sentence for people: what happened (the server's detail) and what to do next. */
export function explain(error: unknown): string {
  if (error instanceof ApiProblem) {
    const next = NEXT_STEP[error.code];
    return next && next !== error.message ? `${error.message} ${next}` : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/** A failed request shown where it happened, read out by screen readers. */
export function ProblemLine({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p role="alert" className="problem">
      {explain(error)}
    </p>
  );
}
