import { SECURITY_SCHEMES } from '@renamer/auth';
import type { OpenApiOptions } from '@renamer/http';

const ADMIN_API_VERSION = '0.1.0';

/** What the admin API’s OpenAPI document says of itself; the operations come from the routes. */
export const ADMIN_OPENAPI: OpenApiOptions = {
  title: 'Renamer admin API',
  version: ADMIN_API_VERSION,
  description:
    'Operators’ API: the admin role is needed. The contract is docs/api.md; errors are RFC 9457 problem documents.',
  path: '/api/admin/openapi.json',
  securitySchemes: SECURITY_SCHEMES,
  tags: [
    { name: 'health', description: 'Dependencies, queues and workers.' },
    { name: 'users', description: 'Users’ accounts: search, plans, quotas, roles, bans.' },
    { name: 'analytics', description: 'Activity and revenue over a range.' },
    { name: 'payments', description: 'Payments and refunds through Stripe.' },
    { name: 'audit-log', description: 'What admins did, with before and after.' },
    { name: 'queues', description: 'Job queues: pause, resume, clean, failed jobs and retries.' },
    { name: 'cleanup', description: 'Maintenance tasks, also run by the worker on a schedule.' },
    { name: 'observability', description: 'Logs and metrics of every service.' },
    { name: 'feature-flags', description: 'Switches every service reads within seconds.' },
  ],
};
