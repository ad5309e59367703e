import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { testDir } from '@renamer/runtime/testing';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The two committed documents as a client gets them: linted by Redocly with redocly.yaml (its recommended rules)
// and turned into types by openapi-typescript that a typed client compiles against. Both run offline.

const root = fileURLToPath(new URL('../../../', import.meta.url));
const documents = { api: 'docs/openapi.json', 'admin-api': 'docs/admin-openapi.json' };

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

/** `redocly lint` as a person runs it from the root, with nothing sent anywhere and no update check. */
async function redoclyLint(document: string): Promise<LintReport> {
  const cli = join(root, 'node_modules/@redocly/cli/bin/cli.js');
  const env = {
    ...process.env,
    REDOCLY_TELEMETRY: 'off',
    REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
    REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
  };
  // It exits 1 when it finds an error; the report on stdout says which.
  const { stdout } = await promisify(execFile)(process.execPath, [cli, 'lint', '--format=json', document], {
    cwd: root,
    env,
    timeout: 30_000,
  }).catch((error: { stdout?: string; stderr?: string }) => {
    if (!error.stdout) throw new Error(`redocly lint ${document} failed: ${error.stderr}`);
    return { stdout: error.stdout };
  });
  return JSON.parse(stdout) as LintReport;
}

const CLIENT = `
import createClient from 'openapi-fetch';
import type { paths as AdminPaths } from './admin-api';
import type { components, paths } from './api';

type Problem = components['schemas']['Problem'];

const api = createClient<paths>({ baseUrl: 'http://localhost:3000', headers: { authorization: 'Bearer rn_key' } });
const admin = createClient<AdminPaths>({ baseUrl: 'http://localhost:3001' });

function problemError(problem: Problem): Error {
  return new Error(\`\${problem.status} \${problem.code}: \${problem.detail} (request \${problem.requestId})\`);
}

export async function batchProgress(batchId: string): Promise<number> {
  const { data, error } = await api.GET('/api/batch/{batchId}/status', { params: { path: { batchId } } });
  if (error) throw problemError(error);
  return data.progress;
}

export async function allBatchIds(): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const { data, error } = await api.GET('/api/batch', { params: { query: { limit: 100, cursor } } });
    if (error) throw problemError(error);
    ids.push(...data.items.map((batch) => batch.batchId));
    cursor = data.nextCursor ?? undefined;
  } while (cursor);
  return ids;
}

export async function cancel(batchId: string): Promise<void> {
  const { error } = await api.POST('/api/batch/{batchId}/cancel', { params: { path: { batchId } } });
  if (error?.code === 'conflict') return;
  if (error) throw problemError(error);
}

export async function ban(id: string, reason: string): Promise<string> {
  const { data, error } = await admin.POST('/api/admin/users/{id}/ban', { params: { path: { id } }, body: { reason } });
  if (error) throw problemError(error);
  return data.id;
}
`;

/** What the TypeScript compiler says of `files` (in `dir`), strict, with `openapi-fetch` from the root. */
function typeCheck(dir: string, files: string[]): string[] {
  const program = ts.createProgram(
    files.map((file) => join(dir, file)),
    {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
      skipLibCheck: true,
      // The client lives in a temporary directory, outside the workspace's node_modules.
      paths: { 'openapi-fetch': [join(root, 'node_modules/openapi-fetch')] },
    },
  );
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    if (!diagnostic.file || diagnostic.start === undefined) return message;
    const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    return `${diagnostic.file.fileName}:${line + 1}:${character + 1} ${message}`;
  });
}

describe('the OpenAPI documents as a client sees them', () => {
  it.each(Object.entries(documents))('%s passes redocly lint with its recommended rules', async (_, document) => {
    const report = await redoclyLint(document);
    const problems = report.problems.map(
      ({ severity, ruleId, message, location }) => `${severity} ${ruleId} at ${location[0]?.pointer}: ${message}`,
    );
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it('gives openapi-typescript types that a typed client compiles against without an error', async () => {
    const dir = testDir('openapi-client');
    for (const [name, document] of Object.entries(documents)) {
      const types = astToString(await openapiTS(new URL(document, `file://${root}`)));
      await writeFile(join(dir, `${name}.ts`), types);
    }
    await writeFile(join(dir, 'client.ts'), CLIENT);
    expect(typeCheck(dir, ['client.ts', 'api.ts', 'admin-api.ts'])).toEqual([]);
  });
});
