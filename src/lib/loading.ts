// §8: a 'Loading...' mask while calls are in flight; it hides 200 ms after the last one ends.
import { proxy } from 'valtio/vanilla';
import { LOADING_HIDE_DELAY_MS } from '../contract/constants.ts';

export const loading = proxy({ inFlight: 0, visible: false });
let hideTimer: ReturnType<typeof setTimeout> | undefined;

export function startLoading(): void {
  loading.inFlight += 1;
  clearTimeout(hideTimer);
  loading.visible = true;
}

export function endLoading(): void {
  loading.inFlight = Math.max(0, loading.inFlight - 1);
  if (loading.inFlight > 0) return;
  clearTimeout(hideTimer);
  hideTimer = setTimeout(() => {
    if (loading.inFlight === 0) loading.visible = false;
  }, LOADING_HIDE_DELAY_MS);
}
