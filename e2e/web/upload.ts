import { describe } from 'vitest';
import type { WebApp } from '../support/web-app';

/** Registered by e2e/web.test.ts, on its stack and browser. */
export function uploadCases(app: WebApp) {
  describe('upload and batches (issue 28: the window as a drop target, accepted files with thumbnails, batch names and deletion)', () => {
    void app;
  });
}
