import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { CliError, EXIT } from './errors';

const StoredConfig = z.object({ server: z.url(), apiKey: z.string().min(1) });
export type Connection = z.infer<typeof StoredConfig>;

/** `$XDG_CONFIG_HOME/renamer`, else `~/.config/renamer`. */
export const configDir = () => join(process.env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'renamer');
export const configPath = () => join(configDir(), 'config.json');

/** Stores the server and key, readable by the user alone (0600 in a 0700 folder). */
export async function saveConnection(connection: Connection): Promise<string> {
  await mkdir(configDir(), { recursive: true, mode: 0o700 });
  const path = configPath();
  await writeFile(path, `${JSON.stringify(connection, null, 2)}\n`, { mode: 0o600 });
  // An existing file keeps its mode through writeFile: set it again.
  await chmod(path, 0o600);
  return path;
}

/** What is stored, overridden by `RENAMER_SERVER` and `RENAMER_API_KEY` (for scripts and CI). */
export async function loadConnection(): Promise<Connection> {
  const stored = await readFile(configPath(), 'utf8')
    .then((text) => StoredConfig.partial().parse(JSON.parse(text)))
    .catch(() => ({}) as Partial<Connection>);
  const server = process.env.RENAMER_SERVER || stored.server;
  const apiKey = process.env.RENAMER_API_KEY || stored.apiKey;
  if (!server || !apiKey) {
    throw new CliError(
      'not signed in: run `renamer login --server URL`, or set RENAMER_SERVER and RENAMER_API_KEY',
      EXIT.usage,
    );
  }
  return { server: server.replace(/\/+$/, ''), apiKey };
}
