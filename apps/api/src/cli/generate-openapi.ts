import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { generateOpenApiDocument, OPENAPI_FILE } from '../openapi-document';

await writeFile(OPENAPI_FILE, await generateOpenApiDocument());
process.stdout.write(`wrote ${fileURLToPath(OPENAPI_FILE)}\n`);
