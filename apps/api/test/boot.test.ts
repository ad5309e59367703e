import { fileURLToPath } from 'node:url';
import { describeServiceBoot } from '@renamer/service-kit/testing';

describeServiceBoot({
  name: 'api',
  entry: fileURLToPath(new URL('../src/server.ts', import.meta.url)),
  portVariable: 'API_PORT',
});
