// One submit flow for every form page (check, busy while it runs, toast what fails, or say it under the field the
// server's refusal names), so the pages don't each repeat it.
import { useRef, useState } from 'react';
import { i18n } from '@lingui/core';
import { texts } from '../api-contract/texts.ts';
import { ApiError, errorText } from './api.ts';
import { dismissToast, showToast } from './toast.ts';
import type { FieldRefusals, RefusedField } from './field-refusals.ts';

/**
 * What a failed transaction (an order, a subscription, a redemption) says: the server's refusal as it answered it,
 * and a transport's own text (offline, too many requests) as it is; a failure that gives no reason (an HTTP error,
 * an unknown error) is "Transaction failed!", the pair of "Successful transaction!".
 */
export function transactionErrorText(error: unknown): string {
  if (error instanceof ApiError && (error.ret !== undefined || error.status === undefined)) return error.message;
  return i18n._(texts.transactionFailed);
}

/**
 * `check` first: a text it returns is toasted and nothing is sent. Otherwise `busy` is true while
 * `run` works, and a failure is toasted with `describeError` (errorText unless a page has its own), unless the server
 * refused one field the form shows (ApiError's `field`, named by a field of `refusals` given to the form): then the
 * text stays under that field (useRefusedField) until it is edited, and everything typed stays.
 * A refusal shown under a field takes the form's own toast still on screen away (its check's, an earlier failure's,
 * one shown with `say`): it was about what the customer has typed since, and would stand beside the field's text.
 * Arguments given to `submit` are passed on to `check` and `run`. A submit while one runs does nothing: the guard is a
 * ref set in the same task as the click (React state would only hold from the next render).
 */
export function useSubmit<Args extends unknown[] = []>(
  run: (...args: Args) => Promise<void>,
  check?: (...args: Args) => string | null,
  describeError: (error: unknown) => string = errorText,
): {
  busy: boolean;
  submit: (...args: Args) => Promise<void>;
  refusals: FieldRefusals;
  /** Toasts `text` as this form's own (a check the page makes apart from `submit`): taken away as the others are. */
  say: (text: string) => void;
} {
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<RefusedField | null>(null);
  const shown = useRef(new Set<string>()).current;
  const running = useRef(false);
  // The id of the last toast this form showed (showToast), while it may still be on screen.
  const ownToast = useRef<number | null>(null);
  const say = (text: string) => void (ownToast.current = showToast(text));
  const submit = async (...args: Args) => {
    if (running.current) return;
    const problem = check?.(...args);
    if (problem) return say(problem);
    running.current = true;
    setBusy(true);
    setRefused(null);
    try {
      await run(...args);
    } catch (error) {
      const field = error instanceof ApiError ? error.field : undefined;
      if (!field || !show(field, describeError(error))) say(describeError(error));
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  // A new object each time: the same refusal again moves the focus back to its field.
  const show = (field: string, text: string) => {
    if (!shown.has(field)) return false;
    if (ownToast.current !== null) dismissToast(ownToast.current);
    setRefused({ field, text });
    return true;
  };
  return { busy, submit, refusals: { refused, shown, clear: () => setRefused(null), show }, say };
}
