// A 'Loading...' mask while calls are in flight; it hides 200 ms after the last one ends. A
// read can wait up to 60 s (REQUEST_TIMEOUT_MS) on a bad network, so after a few seconds the mask offers to cancel
// the reads under it; never a write, whose answer may still be applied.
import { proxy } from 'valtio/vanilla';
import { LOADING_HIDE_DELAY_MS } from '../api-contract/constants.ts';

/** The mask offers Cancel once a read has waited this long. */
export const CANCEL_OFFER_MS = 5_000;

export const loading = proxy({ inFlight: 0, visible: false, writesInFlight: 0, cancellable: false });
let hideTimer: ReturnType<typeof setTimeout> | undefined;
let offerTimer: ReturnType<typeof setTimeout> | undefined;
let reads = new AbortController();

/** The signal a read under the mask listens to: Cancel aborts every such read. */
export const maskSignal = () => reads.signal;

/** Cancel on the mask: the reads under it stop (and fail with 'The request was cancelled.'). */
export function cancelReads(): void {
  if (loading.writesInFlight > 0) return;
  reads.abort();
  reads = new AbortController();
  loading.cancellable = false;
}

export function startLoading(kind: 'read' | 'write' = 'read'): void {
  if (kind === 'write') loading.writesInFlight += 1;
  if (loading.inFlight === 0) {
    clearTimeout(offerTimer);
    offerTimer = setTimeout(() => (loading.cancellable = loading.inFlight > 0), CANCEL_OFFER_MS);
  }
  loading.inFlight += 1;
  clearTimeout(hideTimer);
  loading.visible = true;
}

export function endLoading(kind: 'read' | 'write' = 'read'): void {
  if (kind === 'write') loading.writesInFlight = Math.max(0, loading.writesInFlight - 1);
  loading.inFlight = Math.max(0, loading.inFlight - 1);
  if (loading.inFlight > 0) return;
  clearTimeout(offerTimer);
  loading.cancellable = false;
  clearTimeout(hideTimer);
  hideTimer = setTimeout(() => {
    if (loading.inFlight === 0) loading.visible = false;
  }, LOADING_HIDE_DELAY_MS);
}
