/**
 * Runs the benchmarks named (all when none is), one after the other, each as its own process (so one's memory
 * never shows in the next). Options go to each script; the default is two runs each.
 *
 *   pnpm bench                 # = node_modules/.bin/tsx bench/run-all.ts
 *   pnpm bench -- --runs=3
 *   npm run bench -- http --duration=10
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BENCHMARKS: Record<string, string> = {
  'upload-memory': 'bench/upload-memory.ts',
  'pipeline-throughput': 'bench/pipeline-throughput.ts',
  http: 'bench/http.ts',
  upload: 'bench/upload.ts',
  ws: 'bench/ws.ts',
  web: 'bench/web.ts',
  zip: 'bench/zip.ts',
  analyze: 'bench/analyze.ts',
  'decode-preview': 'bench/decode-preview.ts',
  'naming-quality': 'bench/naming-quality.ts',
};
const given = process.argv.slice(2).filter((arg) => arg !== '--');
const names = given.filter((arg) => !arg.startsWith('--'));
const unknown = names.filter((name) => !(name in BENCHMARKS));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${Object.keys(BENCHMARKS).join(', ')}`);
  process.exit(1);
}
const SCRIPTS = (names.length > 0 ? names : Object.keys(BENCHMARKS)).map((name) => BENCHMARKS[name]!);
const args = given.filter((arg) => arg.startsWith('--'));
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
