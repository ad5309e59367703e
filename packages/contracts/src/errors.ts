import { z } from 'zod';

/** Every error code of the contract, with its HTTP status and the title people see. */
export const ERROR_CODES = {
  unauthenticated: { status: 401, title: 'Authentication required' },
  forbidden: { status: 403, title: 'Forbidden' },
  banned: { status: 403, title: 'Account banned' },
  not_found: { status: 404, title: 'Not found' },
  validation_failed: { status: 400, title: 'Validation failed' },
  invalid_filename: { status: 400, title: 'Invalid filename' },
  invalid_keywords: { status: 400, title: 'Invalid keywords' },
  invalid_template: { status: 400, title: 'Invalid naming template' },
  invalid_cursor: { status: 400, title: 'Invalid cursor' },
  invalid_webhook_url: { status: 400, title: 'Invalid webhook URL' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  file_too_large: { status: 413, title: 'File too large' },
  unsafe_file: { status: 422, title: 'Unsafe file' },
  upload_rejected: { status: 422, title: 'No file accepted' },
  undecodable_image: { status: 422, title: 'Image cannot be decoded' },
  duplicate_file: { status: 409, title: 'Duplicate file' },
  too_many_files: { status: 413, title: 'Too many files' },
  quota_exceeded: { status: 402, title: 'Quota exceeded' },
  conflict: { status: 409, title: 'Conflict' },
  filename_conflict: { status: 409, title: 'Filename conflict' },
  link_expired: { status: 410, title: 'Link expired' },
  rate_limited: { status: 429, title: 'Too many requests' },
  payments_not_configured: { status: 503, title: 'Payments not configured' },
  uploads_disabled: { status: 503, title: 'Uploads switched off' },
  unavailable: { status: 503, title: 'Service unavailable' },
  request_timeout: { status: 408, title: 'Request timeout' },
  uri_too_long: { status: 414, title: 'URI too long' },
  headers_too_large: { status: 431, title: 'Request headers too large' },
  internal: { status: 500, title: 'Internal server error' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;
export const ErrorCodeSchema = z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]);

export const ProblemFieldError = z.object({
  path: z.string(),
  message: z.string(),
  code: ErrorCodeSchema.optional(),
});
export type ProblemFieldError = z.infer<typeof ProblemFieldError>;

/** RFC 9457 problem details, as every error of every service is answered. */
export const Problem = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: ErrorCodeSchema,
  requestId: z.string(),
  errors: z.array(ProblemFieldError).optional(),
});
export type Problem = z.infer<typeof Problem>;

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
export const problemTypeUri = (code: ErrorCode) => `https://renamer.dev/problems/${code.replaceAll('_', '-')}`;

/** The one error type services throw; the error handler turns it into a problem document. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly detail: string = ERROR_CODES[code].title,
    readonly errors?: ProblemFieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
    this.name = 'AppError';
    this.status = ERROR_CODES[code].status;
  }
}
