// Copying an address or an account number, with the texts for success ('Copied successfully!') and failure
// ('Copy failed, please try again later!').
import { i18n } from '@lingui/core';
import { texts } from '../api-contract/texts.ts';
import { toast } from './toast.ts';

/** Copies to the clipboard and says whether it worked. */
export async function copyText(text: string): Promise<void> {
  try {
    if (navigator.clipboard?.writeText) await navigator.clipboard.writeText(text);
    else copyWithSelection(text);
    toast(i18n._(texts.copySuccess));
  } catch {
    toast(i18n._(texts.copyFailed));
  }
}

/** Pages served over plain http have no Clipboard API: copy through a selected, hidden field. */
function copyWithSelection(text: string): void {
  const field = document.createElement('textarea');
  field.value = text;
  field.setAttribute('readonly', '');
  field.style.position = 'fixed';
  field.style.opacity = '0';
  document.body.append(field);
  field.select();
  const copied = document.execCommand('copy');
  field.remove();
  if (!copied) throw new Error('copy refused');
}
