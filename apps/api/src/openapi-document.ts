import { renderOpenApiDocument } from '@renamer/http';
import { buildApi } from './app';
import { loadApiEnv } from './env';

export const OPENAPI_FILE = new URL('../../../docs/openapi.json', import.meta.url);

/** The API's OpenAPI document as committed (`pnpm openapi` writes it). */
export const generateOpenApiDocument = () => renderOpenApiDocument(loadApiEnv({}), buildApi);
