// The device's wish for reduced motion (prefers-reduced-motion), for what CSS cannot stop: a scroll a script starts,
// a timer that changes what is shown. CSS animations and transitions stop by one rule in ui/ui.css.
import { useSyncExternalStore } from 'react';

const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

const query = () => (typeof matchMedia === 'function' ? matchMedia(REDUCED_MOTION_QUERY) : null);

/** Whether the device asks for reduced motion now (false where media queries are unknown). */
export const prefersReducedMotion = (): boolean => query()?.matches ?? false;

/** How a script should scroll: at once when the device asks for reduced motion, else smoothly. */
export const scrollBehavior = (): ScrollBehavior => (prefersReducedMotion() ? 'auto' : 'smooth');

function subscribe(changed: () => void): () => void {
  const media = query();
  media?.addEventListener('change', changed);
  return () => media?.removeEventListener('change', changed);
}

/** prefersReducedMotion() as a hook: the component renders again when the device's setting changes. */
export const useReducedMotion = (): boolean => useSyncExternalStore(subscribe, prefersReducedMotion, () => false);
