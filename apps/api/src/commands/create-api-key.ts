// An operator command, shipped in the API image as dist/commands/create-api-key.js: creates (or finds) an account
// and gives it a new API key, printed once on stdout; everything else goes to stderr. For the first key of a new
// deployment, before anyone has signed in:
//   node dist/commands/create-api-key.js --email ops@example.com [--name "Operations"] [--admin] [--key-name deploy]
// Exit codes: 0 the key was printed, 1 it could not be made (the database), 2 the command was used wrongly.
import { parseArgs } from 'node:util';
import { PLAN_QUOTAS } from '@renamer/contracts';
import { createDb, createRepositories } from '@renamer/db';
import { emailHash } from '@renamer/domain';
import { commonEnv, parseEnv } from '@renamer/runtime';
import { z } from 'zod';
import { createApiKeyService } from '../services/api-keys';

/** Accounts made here are told apart from those of an identity provider, which are keyed by its issuer. */
export const OPERATOR_PROVIDER = 'operator';

const Options = z.object({
  email: z.email('--email must be an email address (it is required)'),
  name: z.string().trim().min(1).max(80).default('Operator'),
  'key-name': z.string().trim().min(1).max(100).default('created by create-api-key'),
  admin: z.boolean().default(false),
});

function stop(code: 1 | 2, message: string): never {
  process.stderr.write(`create-api-key: ${message}\n`);
  process.exit(code);
}

/** The first cause of an error: a failed query wraps the database's own word (and its SQL, of no use here). */
function rootCause(error: unknown): string {
  let at = error;
  while (at instanceof Error && at.cause instanceof Error) at = at.cause;
  return at instanceof Error ? at.message : String(error);
}

function usage() {
  if (!process.env.DATABASE_URL) stop(2, 'DATABASE_URL is not set');
  try {
    const { DATABASE_URL } = parseEnv(z.object({ DATABASE_URL: commonEnv.DATABASE_URL }));
    const { values } = parseArgs({
      options: {
        email: { type: 'string' },
        name: { type: 'string' },
        'key-name': { type: 'string' },
        admin: { type: 'boolean' },
      },
    });
    const parsed = Options.safeParse(values);
    if (!parsed.success) stop(2, parsed.error.issues.map((issue) => issue.message).join('; '));
    return { databaseUrl: DATABASE_URL, options: parsed.data };
  } catch (error) {
    return stop(2, (error as Error).message);
  }
}

const { databaseUrl, options } = usage();
const client = createDb(databaseUrl, { max: 1 });
try {
  const { users, apiKeys } = createRepositories(client.db);
  const hash = emailHash(options.email);
  const existing = await users.findByProviderSubject(OPERATOR_PROVIDER, hash);
  if (existing?.bannedAt) stop(1, `the account of ${options.email} is banned`);
  const { user, created } = await users.upsertOnSignIn({
    provider: OPERATOR_PROVIDER,
    providerSubject: hash,
    displayName: options.name,
    emailHash: hash,
    quota: PLAN_QUOTAS.basic,
    grantAdmin: options.admin,
  });
  const service = createApiKeyService({ apiKeys, announceEnded: async () => {} });
  const { created: apiKey, key } = await service.create(user.id, { name: options['key-name'] });
  process.stderr.write(
    `create-api-key: ${created ? 'created' : 'found'} user ${user.id} (${user.role}); key ${apiKey.prefix}… ` +
      `named "${apiKey.name}". The key is shown once, below:\n`,
  );
  process.stdout.write(`${key}\n`);
} catch (error) {
  stop(1, rootCause(error));
} finally {
  await client.close();
}
