// What the fields of a form share with its submit about a server's refusal of one field (types only: useSubmit in
// lib/form.ts makes it, the fields in ui/forms.tsx show it), so that neither side loads the other for it.

/** A server's refusal of one field of a form: the field's name as the API contract's input names it, and the text. */
export interface RefusedField {
  field: string;
  text: string;
}

/**
 * What the fields of one form share with its submit (useSubmit's `refusals`): the refusal shown under a field, the
 * names of the fields shown (a refusal about another field is toasted), and how an edit clears it.
 */
export interface FieldRefusals {
  refused: RefusedField | null;
  shown: Set<string>;
  clear: () => void;
  /** Shows `text` under the field `field` if the form shows one of that name: whether it did (else toast it). */
  show: (field: string, text: string) => boolean;
}
