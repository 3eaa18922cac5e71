// The one error type for a refused rule, whichever door the request came through: the HTTP layer
// answers it as ret 0 with the translated text, the operator command prints that text. Nothing was written.
export class Refusal extends Error {
  constructor(
    readonly textId: string,
    readonly values?: Record<string, unknown>,
  ) {
    super(textId);
  }
}
