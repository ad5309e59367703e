import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { generateOpenApiDocument, OPENAPI_FILE } from '../src/openapi-document';

describe('docs/openapi.json', () => {
  it('is the document the code generates (run `pnpm openapi` after changing a route)', async () => {
    const committed = await readFile(OPENAPI_FILE, 'utf8');
    expect(committed).toBe(await generateOpenApiDocument());
  });
});
