import { UploadResponse } from '@renamer/contracts';
import { csrfToken } from '../api/client';

/** Files per request (the API's limit) and requests in flight at once. */
export const FILES_PER_REQUEST = 100;
const REQUESTS_IN_FLIGHT = 2;

export interface UploadFields {
  /** The batch's name (the folder's by default); empty: the server's default. */
  name: string;
  keywords: string;
  context: string;
  locale: string;
  /** A naming template; empty: the account's default. */
  template: string;
  /** For the vision model; empty: the account's default. */
  instructions: string;
  /** `allow`: files the account already holds are named again as new images (the person chose so); absent: refused. */
  duplicates?: 'allow';
}

export type RequestOutcome =
  | { ok: true; response: UploadResponse }
  | {
      ok: false;
      problem: {
        status: number;
        code: string;
        detail: string;
        errors?: { path: string; message: string; code?: string }[];
      };
    }
  | { ok: false; network: true };

/** One multipart request of ≤ 100 files, with the bytes sent so far reported as it goes. */
function sendRequest(files: readonly File[], fields: UploadFields, csrf: string, onProgress: (sent: number) => void) {
  return new Promise<RequestOutcome>((resolve) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) if (value?.trim()) form.append(name, value.trim());
    for (const file of files) form.append('files', file, file.webkitRelativePath.split('/').pop() || file.name);
    const request = new XMLHttpRequest();
    request.open('POST', '/api/batch');
    request.setRequestHeader('x-csrf-token', csrf);
    request.upload.onprogress = (event) => onProgress(event.loaded);
    request.onerror = () => resolve({ ok: false, network: true });
    request.onload = () => {
      const body = request.responseText ? JSON.parse(request.responseText) : {};
      if (request.status === 201) resolve({ ok: true, response: UploadResponse.parse(body) });
      else
        resolve({
          ok: false,
          problem: {
            status: request.status,
            code: body.code ?? 'internal',
            detail: body.detail ?? '',
            errors: body.errors,
          },
        });
    };
    request.send(form);
  });
}

/**
 * Sends `groups` (each ≤ 100 files) with two requests in flight, in order of the groups; each group's outcome
 * is reported as soon as it is known, and what the network dropped can be sent again by the caller.
 */
export async function sendGroups(
  groups: readonly (readonly File[])[],
  fields: UploadFields,
  onOutcome: (group: number, outcome: RequestOutcome) => void,
  onProgress: (group: number, sentBytes: number) => void,
): Promise<void> {
  const csrf = await csrfToken();
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(REQUESTS_IN_FLIGHT, groups.length) }, async () => {
      while (next < groups.length) {
        const group = next++;
        onOutcome(group, await sendRequest(groups[group]!, fields, csrf, (sent) => onProgress(group, sent)));
      }
    }),
  );
}
