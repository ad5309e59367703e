import { SECURITY_SCHEMES } from '@renamer/auth';
import type { OpenApiOptions } from '@renamer/http';

const API_VERSION = '0.1.0';

/** What the API’s OpenAPI document says of itself; the operations come from the routes. */
export const API_OPENAPI: OpenApiOptions = {
  title: 'Renamer API',
  version: API_VERSION,
  description: 'Bulk image renaming. The contract is docs/api.md; errors are RFC 9457 problem documents.',
  path: '/api/openapi.json',
  securitySchemes: SECURITY_SCHEMES,
  tags: [
    { name: 'auth', description: 'Signing in and out, and the caller’s own account.' },
    { name: 'api-keys', description: 'Keys for scripts: `Authorization: Bearer <key>`, no CSRF token.' },
    { name: 'batches', description: 'Uploads and the progress of their analysis.' },
    { name: 'images', description: 'A batch’s images: their names and history, approval and download links.' },
    { name: 'files', description: 'Signed download links, which need no credentials.' },
    { name: 'downloads', description: 'The caller’s downloads: what each held, how it was made, the bytes sent.' },
    { name: 'keywords', description: 'Keywords: enhanced, suggested for an image or a text, and validated.' },
    { name: 'payments', description: 'Plans paid through Stripe, and Stripe’s signed event deliveries.' },
    { name: 'webhooks', description: 'Endpoints told when a batch finishes or an image fails (Standard Webhooks).' },
  ],
};
