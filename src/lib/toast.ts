// Short messages at the bottom of the screen: at least TOAST_MS (1500 ms, the product's default), longer for a text
// that takes longer to read.
import { proxy } from 'valtio/vanilla';
import { TOAST_MS } from '../api-contract/constants.ts';
import { characterCount } from '../api-contract/character-count.ts';

export const toasts = proxy({ current: null as { id: number; text: string } | null });
let timer: ReturnType<typeof setTimeout> | undefined;
let nextId = 1;

/** Time to notice a message before reading it, ms. */
const NOTICE_MS = 1000;
/** Reading time per character shown, ms: about 17 characters a second, a slow reader's pace of running text. */
const PER_CHARACTER_MS = 60;
/** The longest a toast stays up, ms: longer texts belong in a dialog or on the page. */
export const TOAST_MAX_MS = 8000;

/**
 * How long `text` stays up, ms: `ms` (default TOAST_MS), or the time to notice it and read it at a slow reader's pace
 * (1 s and 60 ms a character, counted as the reader sees them: a Thai or Devanagari cluster is one) when that is
 * longer, at most TOAST_MAX_MS.
 */
export function toastDuration(text: string, ms: number = TOAST_MS): number {
  let characters: number;
  try {
    characters = characterCount(text);
  } catch {
    characters = [...text].length; // a browser without Intl.Segmenter: code points
  }
  return Math.max(ms, Math.min(TOAST_MAX_MS, NOTICE_MS + PER_CHARACTER_MS * characters));
}

/** Shows `text` in place of any toast showing, for toastDuration(text, ms). */
export function toast(text: string, ms: number = TOAST_MS): void {
  clearTimeout(timer);
  const id = nextId++;
  toasts.current = { id, text };
  timer = setTimeout(
    () => {
      if (toasts.current?.id === id) toasts.current = null;
    },
    toastDuration(text, ms),
  );
}
