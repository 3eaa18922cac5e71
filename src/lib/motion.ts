// The device's wish for reduced motion (prefers-reduced-motion), for what CSS cannot stop: a timer that changes what
// is shown (the ticker of ui/ScrollingLines.tsx). CSS animations and transitions stop by one rule in ui/ui.css. The tab
// pages read the media query themselves (the slides, the options page's scroll): this file stays out of their first
// load.
import { useSyncExternalStore } from 'react';

const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

const query = () => (typeof matchMedia === 'function' ? matchMedia(REDUCED_MOTION_QUERY) : null);

/** Whether the device asks for reduced motion now (false where media queries are unknown). */
export const prefersReducedMotion = (): boolean => query()?.matches ?? false;

function subscribe(changed: () => void): () => void {
  const media = query();
  media?.addEventListener('change', changed);
  return () => media?.removeEventListener('change', changed);
}

/** prefersReducedMotion() as a hook: the component renders again when the device's setting changes. */
export const useReducedMotion = (): boolean => useSyncExternalStore(subscribe, prefersReducedMotion, () => false);
