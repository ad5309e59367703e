import { describe } from 'vitest';
import type { WebApp } from '../support/web-app';

/** Registered by e2e/web.test.ts, on its stack and browser. */
export function accountCases(app: WebApp) {
  describe('one visual system (issue 28: buttons, dark mode, empty states, keys, plans)', () => {
    void app;
  });
}
