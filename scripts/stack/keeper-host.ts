// Holds what the `hold` of a module sets up (an embedded PostgreSQL, a redis-server, what a test run leaves
// behind) for the process that started us (keeper.ts), and lets go once that process closes our stdin, which its
// exit does too, however it ends. In a process group of our own we do not get a terminal's Ctrl-C, so the
// services stop first, against a database that is still there.
import type { Hold } from './keeper';

const [module = '', args = ''] = process.argv.slice(2);
const { hold } = (await import(module)) as { hold: Hold<unknown> };
const release = await hold(JSON.parse(args));
process.stdout.write('ready\n');
process.stdin.on('end', () => void release().finally(() => process.exit(0))).resume();
