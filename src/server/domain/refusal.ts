// The one error type for a refused rule, whichever door the request came through: the HTTP layer
// answers it as ret 0 with the translated text, the operator command prints that text. Nothing was written.
export class Refusal extends Error {
  constructor(
    /** A contract text's id (translated for whoever asked), or, for a rule only an operator meets, the English sentence itself. */
    readonly textId: string,
    readonly values?: Record<string, unknown>,
  ) {
    super(textId);
  }
}
