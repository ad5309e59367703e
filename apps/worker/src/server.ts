import { runWorker } from './run-worker';

await runWorker();
