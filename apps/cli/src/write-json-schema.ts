// `pnpm --filter @renamer/cli schema`: writes schema/rename-result.schema.json from the zod schema of --json
// (a test fails when the committed file is stale).
import { writeFileSync } from 'node:fs';
import { renameResultJsonSchema } from './rename-result';

writeFileSync(
  new URL('../schema/rename-result.schema.json', import.meta.url),
  `${JSON.stringify(renameResultJsonSchema(), null, 2)}\n`,
);
