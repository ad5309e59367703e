import { fileURLToPath } from 'node:url';
import { describeServiceBoot } from '@renamer/runtime/testing';

describeServiceBoot({
  name: 'api',
  entry: fileURLToPath(new URL('../src/server.ts', import.meta.url)),
  portVariable: 'API_PORT',
});
