/**
 * Runs every benchmark, one after the other, each as its own process (so one's memory never shows in the
 * next). Arguments go to each script; the default is two runs each.
 *
 *   pnpm bench                 # = node_modules/.bin/tsx bench/run-all.ts
 *   pnpm bench -- --runs=3
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCRIPTS = ['bench/upload-memory.ts', 'bench/pipeline-throughput.ts'];
const args = process.argv.slice(2).filter((arg) => arg !== '--');
if (!args.some((arg) => arg.startsWith('--runs='))) args.push('--runs=2');

let failed = 0;
for (const script of SCRIPTS) {
  process.stdout.write(`\n=== ${script} ${args.join(' ')}\n`);
  // In a process group of its own, a Ctrl-C reaches the benchmark once, through here: a second signal would end
  // its cleanup at once. This process waits for that cleanup.
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT,
    stdio: 'inherit',
    detached: true,
  });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  process.off('SIGINT', forward);
  process.off('SIGTERM', forward);
  if (code === 130 || code === 143) process.exit(code);
  if (code !== 0) {
    failed += 1;
    console.error(`${script} exited with ${code}`);
  }
}
process.exit(failed === 0 ? 0 : 1);
