// `pnpm --filter @renamer/cli schema`: writes schema/rename-result.schema.json and
// schema/rename-again-result.schema.json from the zod schemas of --json (a test fails when a committed file is stale).
import { writeFileSync } from 'node:fs';
import { againResultJsonSchema } from './again';
import { renameResultJsonSchema } from './rename-result';

for (const [file, schema] of [
  ['rename-result.schema.json', renameResultJsonSchema()],
  ['rename-again-result.schema.json', againResultJsonSchema()],
] as const) {
  writeFileSync(new URL(`../schema/${file}`, import.meta.url), `${JSON.stringify(schema, null, 2)}\n`);
}
