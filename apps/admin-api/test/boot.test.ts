import { fileURLToPath } from 'node:url';
import { describeServiceBoot } from '@renamer/runtime/testing';

describeServiceBoot({
  name: 'admin-api',
  entry: fileURLToPath(new URL('../src/server.ts', import.meta.url)),
  portVariable: 'ADMIN_API_PORT',
});
