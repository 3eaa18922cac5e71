// Checks a form against the API contract's schema before it is sent; the answer is the spec's text.
import * as v from 'valibot';
import { i18n } from '@lingui/core';
import { firstIssueTextId } from '../api-contract/fields.ts';
import { textById } from '../api-contract/texts.ts';

/** The translated text of the first rule the input breaks, or null when it is valid. */
export function firstError(schema: v.GenericSchema, input: unknown): string | null {
  const result = v.safeParse(schema, input, { abortEarly: true });
  if (result.success) return null;
  const id = firstIssueTextId(result.issues);
  return i18n._(textById[id] ?? { id, message: id });
}
