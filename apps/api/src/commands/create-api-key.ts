// An operator command, shipped in the API image as dist/commands/create-api-key.js: creates (or finds) an account
// and gives it a new API key, printed once on stdout; everything else goes to stderr. For the first key of a new
// deployment, before anyone has signed in:
//   node dist/commands/create-api-key.js --email ops@example.com [--name "Operations"] [--admin] [--key-name deploy]
import { parseArgs } from 'node:util';
import { createDb, createRepositories } from '@renamer/db';
import { emailHash, PLAN_QUOTAS } from '@renamer/domain';
import { z } from 'zod';
import { createApiKeyService } from '../services/api-keys';

/** Accounts made here are told apart from those of an identity provider, which are keyed by its issuer. */
export const OPERATOR_PROVIDER = 'operator';

const Options = z.object({
  email: z.email('--email must be an email address'),
  name: z.string().trim().min(1).max(80).default('Operator'),
  'key-name': z.string().trim().min(1).max(100).default('created by create-api-key'),
  admin: z.boolean().default(false),
});

function fail(message: string): never {
  process.stderr.write(`create-api-key: ${message}\n`);
  process.exit(2);
}

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) fail('DATABASE_URL is not set');
const { values } = (() => {
  try {
    return parseArgs({
      options: {
        email: { type: 'string' },
        name: { type: 'string' },
        'key-name': { type: 'string' },
        admin: { type: 'boolean' },
      },
    });
  } catch (error) {
    return fail((error as Error).message);
  }
})();
const parsed = Options.safeParse(values);
if (!parsed.success) fail(parsed.error.issues.map((issue) => issue.message).join('; '));
const options = parsed.data;

const client = createDb(databaseUrl, { max: 1 });
try {
  const { users, apiKeys } = createRepositories(client.db);
  const hash = emailHash(options.email);
  const { user, created } = await users.upsertOnSignIn({
    provider: OPERATOR_PROVIDER,
    providerSubject: hash,
    displayName: options.name,
    emailHash: hash,
    quota: PLAN_QUOTAS.basic,
    grantAdmin: options.admin,
  });
  if (user.bannedAt) fail(`the account of ${options.email} is banned`);
  const service = createApiKeyService({ apiKeys, announceEnded: async () => {} });
  const { created: apiKey, key } = await service.create(user.id, { name: options['key-name'] });
  process.stderr.write(
    `create-api-key: ${created ? 'created' : 'found'} user ${user.id} (${user.role}); key ${apiKey.prefix}… ` +
      `named "${apiKey.name}". The key is shown once, below:\n`,
  );
  process.stdout.write(`${key}\n`);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
} finally {
  await client.close();
}
