import { describe } from 'vitest';
import type { WebApp } from '../support/web-app';

/** Registered by e2e/web.test.ts, on its stack and browser. */
export function reviewCases(app: WebApp) {
  describe('the review page (issue 28: the photo first, rename by touch, undo, select and filter, grid, phones)', () => {
    void app;
  });
}
