import { openAsBlob } from 'node:fs';
import { type DuplicatesMode, UploadResponse } from '@renamer/contracts';
import type { ApiClient } from './client';
import type { LocalImage } from './files';

/** The API's limit of files per request. */
export const FILES_PER_REQUEST = 100;

export interface UploadFields {
  keywords?: string;
  context?: string;
  locale?: string;
  /** A naming template (`acme-{subject}-{seq:3}`); the account's default when absent. */
  template?: string;
  /** For the vision model; the account's default when absent. */
  instructions?: string;
  /** Files the account already holds: `refuse` (the API's default) or `allow` (uploaded again as new images). */
  duplicates?: DuplicatesMode;
}
/** The form fields of POST /api/batch a run sends (its other options stay on this side). */
const FIELDS = ['keywords', 'context', 'locale', 'template', 'instructions', 'duplicates'] as const;

/** One `POST /api/batch` of ≤ 100 files, each streamed from disk (a file-backed Blob), never read into memory. */
export async function uploadRequest(
  client: ApiClient,
  files: LocalImage[],
  fields: UploadFields,
): Promise<UploadResponse> {
  const form = new FormData();
  for (const name of FIELDS) {
    const value = fields[name];
    if (value) form.append(name, value);
  }
  for (const file of files) form.append('files', await openAsBlob(file.path), file.name);
  return client.request('/api/batch', UploadResponse, { method: 'POST', body: form });
}
