import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { againResultJsonSchema } from '../src/again';
import { renameResultJsonSchema } from '../src/rename-result';

describe('the JSON Schema of renamer rename --json', () => {
  it('is committed as the zod schema generates it (pnpm --filter @renamer/cli schema)', () => {
    const committed = JSON.parse(readFileSync(new URL('../schema/rename-result.schema.json', import.meta.url), 'utf8'));
    expect(committed).toEqual(renameResultJsonSchema());
  });

  it('of --again --json is committed as the zod schema generates it', () => {
    const committed = JSON.parse(
      readFileSync(new URL('../schema/rename-again-result.schema.json', import.meta.url), 'utf8'),
    );
    expect(committed).toEqual(againResultJsonSchema());
  });
});
