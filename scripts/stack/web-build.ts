// The web app is built by `npm start` when its sources changed since the last build, so the API serves the
// current app at its own address; a build left from before is reused.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'vite';

const SOURCES = ['src', 'index.html', 'vite.config.ts', 'package.json'];

/** The newest modification time under `path` (a file, or a directory walked through). */
async function newest(path: string): Promise<number> {
  const info = await stat(path).catch(() => undefined);
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  const entries = await readdir(path);
  return Math.max(0, ...(await Promise.all(entries.map((entry) => newest(join(path, entry))))));
}

/** Builds `webDir` into its dist/ unless dist/index.html is newer than every source; says which it did. */
export async function buildWebIfChanged(webDir: string): Promise<'built' | 'current'> {
  const built = (await stat(join(webDir, 'dist', 'index.html')).catch(() => undefined))?.mtimeMs ?? 0;
  const sources = Math.max(...(await Promise.all(SOURCES.map((source) => newest(join(webDir, source))))));
  if (built > sources) return 'current';
  // A production build needs NODE_ENV=production while it runs (React's JSX transform reads it: under a test
  // runner's `test` it would emit development calls the production React lacks); the process keeps its own after.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ root: webDir, configFile: join(webDir, 'vite.config.ts'), logLevel: 'warn' });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  return 'built';
}
