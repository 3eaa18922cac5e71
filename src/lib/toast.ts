// Short messages at the bottom of the screen (1500 ms by default: TOAST_MS).
import { proxy } from 'valtio/vanilla';
import { TOAST_MS } from '../api-contract/constants.ts';

export const toasts = proxy({ current: null as { id: number; text: string } | null });
let timer: ReturnType<typeof setTimeout> | undefined;
let nextId = 1;

export function toast(text: string, ms: number = TOAST_MS): void {
  clearTimeout(timer);
  const id = nextId++;
  toasts.current = { id, text };
  timer = setTimeout(() => {
    if (toasts.current?.id === id) toasts.current = null;
  }, ms);
}
