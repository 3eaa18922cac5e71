// A toast's text with amounts (lib/toast.ts ToastMessage), loaded the first time such a toast shows: the start's
// scripts stay as small as they were, and the toast shows its plain text until this has loaded.
import type { ReactNode } from 'react';
import { Trans as Message } from '@lingui/react';
import { isToastMessage, type ToastMessage } from '../lib/toast.ts';
import { Amount } from '../ui/Amount.tsx';

/** A toast's text with amounts: each amount and its unit in one left-to-right element (Amount), in any language. */
export default function ToastMessageText({ text }: { text: Readonly<ToastMessage> }) {
  const values: Record<string, ReactNode> = { ...(text.message.values as Record<string, ReactNode> | undefined) };
  for (const [name, part] of Object.entries(text.parts))
    values[name] = isToastMessage(part) ? (
      <ToastMessageText text={part} />
    ) : (
      <Amount value={part.amount} unit={part.unit} />
    );
  return <Message id={text.message.id} message={text.message.message} values={values} />;
}
