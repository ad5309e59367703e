import { fileURLToPath } from 'node:url';
import { describeServiceBoot } from '@renamer/runtime/testing';

describeServiceBoot({
  name: 'worker',
  entry: fileURLToPath(new URL('../src/server.ts', import.meta.url)),
  portVariable: 'WORKER_PORT',
});
