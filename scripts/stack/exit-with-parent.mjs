// Preloaded (node --import) into every process the stack starts. They run in process groups of their own, so
// that Ctrl-C reaches them once, through the stack; this is what stops them should the stack itself be killed.
//
// The watch runs on a thread of its own: with the stack gone, so is the reader of stdout, and pino's flush at
// exit then retries the broken pipe forever (sonic-boom 4), blocking the main thread and its timers.
import { isMainThread, Worker, workerData } from 'node:worker_threads';

const GRACE_MS = 20_000;

if (isMainThread) {
  new Worker(new URL(import.meta.url), { workerData: { stackParentPid: process.ppid } }).unref();
} else if (workerData?.stackParentPid) {
  // Node preloads this module into every worker thread too: only the thread started above watches.
  const watch = setInterval(() => {
    if (process.ppid === workerData.stackParentPid) return;
    clearInterval(watch);
    process.kill(process.pid, 'SIGTERM');
    setTimeout(() => process.kill(process.pid, 'SIGKILL'), GRACE_MS);
  }, 1000);
}
