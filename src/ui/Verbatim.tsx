// Lingui's <Trans> formats its message with the values in it, then reads component tags such as <0>…</0> or <b>…</b>
// in the finished text: a customer's or operator's own text given as a value would lose its tags or become markup.

/**
 * Someone's own text (a wallet alias, a reviewer's reason, a search) inside a translated sentence, shown exactly as
 * typed: `<Trans>Delete the wallet <Verbatim text={alias} />?</Trans>`. Given as a prop of a self-closing element, the
 * text never enters the message. It sits in a <bdi>, so its direction cannot reorder the sentence around it.
 */
export function Verbatim({ text, dir }: { text: string; dir?: 'ltr' | 'auto' }) {
  return <bdi dir={dir}>{text}</bdi>;
}
