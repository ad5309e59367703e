import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { ADMIN_OPENAPI_FILE, generateAdminOpenApiDocument } from '../openapi-document';

await writeFile(ADMIN_OPENAPI_FILE, await generateAdminOpenApiDocument());
process.stdout.write(`wrote ${fileURLToPath(ADMIN_OPENAPI_FILE)}\n`);
