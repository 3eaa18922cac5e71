// Checks a form against the API contract's schema before it is sent; the answer is the spec's text.
import * as v from 'valibot';
import { i18n, type MessageDescriptor } from '@lingui/core';
import { firstIssueTextId } from '../api-contract/fields.ts';
import { textById } from '../api-contract/texts.ts';

/**
 * The translated text of the first rule the input breaks, or null when it is valid. `texts`: a feature's own texts
 * its schema may answer with (the chat's `chatTexts`), besides the API contract's; a text id known to neither reads
 * as "The request is not valid!".
 */
export function firstError(
  schema: v.GenericSchema,
  input: unknown,
  texts: Record<string, MessageDescriptor> = {},
): string | null {
  const result = v.safeParse(schema, input, { abortEarly: true });
  if (result.success) return null;
  const known = { ...textById, ...Object.fromEntries(Object.values(texts).map((text) => [text.id, text])) };
  const id = firstIssueTextId(result.issues, known);
  return i18n._(known[id] ?? { id, message: id });
}
