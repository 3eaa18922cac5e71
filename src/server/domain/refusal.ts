// The one error type for a refused rule, whichever entry point the request came through: the HTTP layer
// answers it as ret 0 with the translated text, the operator command prints that text. Nothing was written.
import type { MessageDescriptor } from '@lingui/core';
import type { texts } from '../../api-contract/texts.ts';
import type { serverTexts } from '../../api-contract/server-texts.ts';
import type { consoleTexts } from '../../api-contract/console-texts.ts';
import type { chatTexts } from '../../api-contract/service-chat.ts';
import type { noticeTexts } from '../../api-contract/notifications.ts';
import type { triggerTexts } from '../../api-contract/contract-triggers.ts';
import type { alertTexts } from '../../api-contract/price-alert-met.ts';
import { textById } from '../i18n.ts';

type IdsOf<T extends Record<string, { id: string }>> = T[keyof T]['id'];
/** The id of a text the catalogs translate: the API contract's, the server's, the console's, the chat's, a
 * notification's or a conditional order's. */
export type TextId =
  | IdsOf<typeof texts>
  | IdsOf<typeof serverTexts>
  | IdsOf<typeof consoleTexts>
  | IdsOf<typeof chatTexts>
  | IdsOf<typeof noticeTexts>
  | IdsOf<typeof triggerTexts>
  | IdsOf<typeof alertTexts>;

export class Refusal extends Error {
  /** A text's id, translated for whoever asked (the customer, the operator, the command line in English); never a
   * sentence. */
  readonly textId: TextId;
  /** The values of the text's placeholders ({0}, {id}…). */
  readonly values?: Record<string, unknown>;
  /**
   * The request field the refusal is about, named as the API contract's input names it (`amount`, `paypass`), when
   * it is about one field; the answer carries it as the envelope's `field` (envelope.ts), so a form shows the text
   * under that field. Left out when the refusal is about the request as a whole.
   */
  field?: string;

  constructor(textId: TextId, values?: Record<string, unknown>, field?: string) {
    super(textId);
    this.textId = textId;
    this.values = values;
    this.field = field;
    // A sentence would reach every language as it is written: only a text of the catalogs is an answer.
    if (!(textId in textById)) throw new Error(`A Refusal takes a text id of api-contract/*texts.ts, not "${textId}".`);
  }
}

/** The refusal of a rule the API contract found broken, with its text (the form checked the same rule and showed the
 * same text); the constructor checks the id. */
export const refusalOf = (broken: MessageDescriptor) => new Refusal(broken.id as TextId, broken.values);

/** Refuses with the text of a rule the API contract found broken, if it found one, about the request's `field`. */
export function refuseIfBroken(broken: MessageDescriptor | null | undefined, field?: string): void {
  if (broken) throw new Refusal(broken.id as TextId, broken.values, field);
}

/**
 * Runs `check`, and names `field` (a request field as the API contract's input names it) on a Refusal it raises that
 * names none: a route says which field its rule checked (the withdrawal's limits are about `amount`). Any other error
 * passes as it came.
 */
export async function refusedAbout<T>(field: string, check: () => T | Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    if (error instanceof Refusal) error.field ??= field;
    throw error;
  }
}
