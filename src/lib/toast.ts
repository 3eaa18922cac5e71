// Short messages at the bottom of the screen: at least TOAST_MS (1500 ms, the product's default), longer for a text
// that takes longer to read. A text with amounts in it keeps each amount beside its unit (see ToastMessage).
import { i18n, type MessageDescriptor } from '@lingui/core';
import { proxy } from 'valtio/vanilla';
import { TOAST_MS } from '../api-contract/constants.ts';
import { characterCount } from '../api-contract/character-count.ts';

/**
 * An amount in a toast's text, already written for people (formatQuantity, formatMoney, formatPrice…), and the unit it
 * counts (an asset's code: "BTC", "USDT"; '' for a price shown without one).
 */
export interface ToastAmount {
  amount: string;
  unit: string;
}

/**
 * A toast's text with amounts in it: `message` (a `msg` descriptor) whose placeholders named in `parts` are amounts
 * (or a text of this kind nested, such as an outcome inside "Practice: {outcome}"). The toast shows each amount and its
 * unit as one left-to-right unit ("0.001 BTC"), so right-to-left text (Arabic) around it cannot swap them into
 * "BTC 0.001"; no invisible direction character is put in the text. Its other placeholders are the descriptor's own
 * values.
 */
export interface ToastMessage {
  message: MessageDescriptor;
  parts: Readonly<Record<string, ToastAmount | ToastMessage>>;
}

/** What a toast says: a plain text, or one with amounts that keep their units (ToastMessage). */
export type ToastText = string | ToastMessage;

/** True for a ToastMessage part, false for an amount. */
export const isToastMessage = (part: ToastAmount | ToastMessage): part is ToastMessage => 'message' in part;

/** `text` as plain text in the app's language, each amount followed by its unit: "Bought 0.001 BTC at 97,074.84". */
export function plainText(text: ToastText): string {
  if (typeof text === 'string') return text;
  const values: Record<string, string> = { ...(text.message.values as Record<string, string> | undefined) };
  for (const [name, part] of Object.entries(text.parts))
    values[name] = isToastMessage(part) ? plainText(part) : part.unit ? `${part.amount} ${part.unit}` : part.amount;
  const written: MessageDescriptor = { ...text.message, values };
  return i18n._(written);
}

export const toasts = proxy({
  current: null as { id: number; text: string; message: ToastMessage | null } | null,
});
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

/**
 * Shows `shown` in place of any toast showing, for toastDuration of its plain text (`ms` at least); a ToastMessage
 * keeps its amounts beside their units.
 */
export function toast(shown: ToastText, ms: number = TOAST_MS): void {
  showToast(shown, ms);
}

/** As toast, answering the toast's id: for a toast its sender may have to take off the screen (dismissToast). */
export function showToast(shown: ToastText, ms: number = TOAST_MS): number {
  clearTimeout(timer);
  const id = nextId++;
  const text = plainText(shown);
  toasts.current = { id, text, message: typeof shown === 'string' ? null : shown };
  timer = setTimeout(
    () => {
      if (toasts.current?.id === id) toasts.current = null;
    },
    toastDuration(text, ms),
  );
  return id;
}

/**
 * Takes the toast `id` (showToast's answer) off the screen now, if it is still the one showing; a toast shown since
 * stays. For a toast that what is on screen has made stale (a form's earlier refusal, once one shows under its field).
 */
export function dismissToast(id: number): void {
  if (toasts.current?.id !== id) return;
  clearTimeout(timer);
  toasts.current = null;
}
