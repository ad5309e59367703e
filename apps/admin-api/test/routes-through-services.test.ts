import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Routes validate, call one service function and answer: the database, Stripe and BullMQ stay behind the services
 * (`src/services`), and so do transactions. `.dependency-cruiser.cjs` (rule `admin-routes-through-services`) checks
 * the imports too; this reads the text, so it also sees a type-only import and a transaction opened on a handle a
 * route was given.
 */
const ROUTES_DIR = fileURLToPath(new URL('../src/routes', import.meta.url));

/** `from '…'`, `import '…'`, `import('…')` and `require('…')` of the module or one of its subpaths. */
const importOf = (module: string) =>
  new RegExp(`(?:\\bfrom|\\bimport|\\brequire)\\s*\\(?\\s*['"]${module}(?:\\/[^'"]*)?['"]`);

const FORBIDDEN = [
  { what: 'imports @renamer/db', pattern: importOf('@renamer/db') },
  { what: 'imports stripe', pattern: importOf('stripe') },
  { what: 'imports bullmq', pattern: importOf('bullmq') },
  { what: 'calls .transaction(', pattern: /\.transaction\s*\(/ },
];

async function routeFiles(): Promise<{ path: string; text: string }[]> {
  const entries = await readdir(ROUTES_DIR, { recursive: true, withFileTypes: true });
  return Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map(async (entry) => {
        const path = join(entry.parentPath, entry.name);
        return { path: relative(ROUTES_DIR, path), text: await readFile(path, 'utf8') };
      }),
  );
}

describe('admin routes go through services', () => {
  it('recognises each forbidden form', () => {
    const samples = [
      "import type { Database } from '@renamer/db';",
      "import { users } from '@renamer/db/schema';",
      'import Stripe from "stripe";',
      "import type { Job, Queue } from 'bullmq';",
      "const { Queue } = await import('bullmq');",
      "export type { Payment } from '@renamer/db';",
      'await options.db.transaction(async (tx) => {});',
    ];
    for (const sample of samples) {
      expect(
        FORBIDDEN.some(({ pattern }) => pattern.test(sample)),
        sample,
      ).toBe(true);
    }
    expect(FORBIDDEN.some(({ pattern }) => pattern.test("import { AppError } from '@renamer/contracts';"))).toBe(false);
  });

  it('no file under src/routes, helpers included, imports @renamer/db, stripe or bullmq or calls .transaction(', async () => {
    const files = await routeFiles();
    expect(files.length).toBeGreaterThanOrEqual(10);
    const offences = files.flatMap(({ path, text }) =>
      FORBIDDEN.filter(({ pattern }) => pattern.test(text)).map(({ what }) => `${path} ${what}`),
    );
    expect(offences).toEqual([]);
  });
});
