import { afterAll, beforeAll, vi } from 'vitest';

/**
 * jsdom has no `showModal()` or `close()`: the least of them (the `open` attribute, the `close` event), for the
 * calling test file only. The top layer, inertness and Esc are the browser's, checked in Chromium (e2e/web.test.ts).
 * Returns the `showModal` spy.
 */
export function stubModalDialogs() {
  const prototype = HTMLDialogElement.prototype;
  const own = { showModal: prototype.showModal, close: prototype.close };
  const showModal = vi.fn(function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  });
  beforeAll(() => {
    prototype.showModal = showModal;
    prototype.close = function (this: HTMLDialogElement) {
      if (!this.open) return;
      this.removeAttribute('open');
      this.dispatchEvent(new Event('close'));
    };
  });
  afterAll(() => Object.assign(prototype, own));
  return showModal;
}
