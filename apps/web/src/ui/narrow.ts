import { useSyncExternalStore } from 'react';

/** The width under which the app lays itself out for a phone (the same as styles.css's). */
const NARROW = '(max-width: 40rem)';

const subscribe = (changed: () => void) => {
  const query = window.matchMedia(NARROW);
  query.addEventListener('change', changed);
  return () => query.removeEventListener('change', changed);
};

/** Whether the window is phone-narrow now, followed as it changes. */
export const useNarrow = () => useSyncExternalStore(subscribe, () => window.matchMedia(NARROW).matches);
