import { renderOpenApiDocument } from '@renamer/http';
import { buildAdminApi } from './app';
import { loadAdminEnv } from './env';

export const ADMIN_OPENAPI_FILE = new URL('../../../docs/admin-openapi.json', import.meta.url);

/** The admin API's OpenAPI document as committed (`pnpm openapi` writes it). */
export const generateAdminOpenApiDocument = () => renderOpenApiDocument(loadAdminEnv({}), buildAdminApi);
