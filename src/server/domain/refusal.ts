// The one error type for a refused rule, whichever door the request came through: the HTTP layer
// answers it as ret 0 with the translated text, the operator command prints that text. Nothing was written.
import type { MessageDescriptor } from '@lingui/core';

export class Refusal extends Error {
  constructor(
    /** A contract text's id (translated for whoever asked), or, for a rule only an operator meets, the English sentence itself. */
    readonly textId: string,
    readonly values?: Record<string, unknown>,
  ) {
    super(textId);
  }
}

/** Refuses with the text of a rule the contract found broken (the form checked the same rule and showed the same text). */
export function refuseIfBroken(broken: MessageDescriptor | null | undefined): void {
  if (broken) throw new Refusal(broken.id, broken.values);
}
