// Loaded into the API by bench/ws.ts (NODE_OPTIONS="--expose-gc --import=…"). SIGWINCH runs a full GC, so
// that the memory read afterwards is what is still reachable: its default is to be ignored, and the API's
// close-with-grace treats SIGUSR2 as a shutdown. With BENCH_CPU_PROFILE set (a file path) the
// process is profiled from here to its exit: --cpu-prof itself is not allowed in NODE_OPTIONS.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

process.on('SIGWINCH', () => globalThis.gc?.());

const profilePath = process.env.BENCH_CPU_PROFILE;
if (profilePath) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.start');
  // The in-process session answers synchronously, so the profile is written before the process ends.
  process.on('exit', () => {
    session.post('Profiler.stop', (_err, result) => writeFileSync(profilePath, JSON.stringify(result.profile)));
  });
}
