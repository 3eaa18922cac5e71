// @vitest-environment jsdom
// The verification-code field of every form: a code pasted from a mail or a message with the spaces, line breaks or
// grouping around or inside it, or typed in the digits of any of the six languages, is kept as its six ASCII digits;
// the field sets no maxlength that would cut such a paste to its first six characters unseen.
import { act, useState } from 'react';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { CodeField } from '../../src/ui/CodeButton.tsx';
import { renderInApp } from './render-in-app.tsx';
import { mountPoint, resetClientState } from './helpers.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();
beforeEach(resetClientState);
afterEach(() => act(async () => resetClientState()));

function Harness() {
  const [code, setCode] = useState('');
  return <CodeField value={code} onChange={setCode} onSend={null} />;
}

const input = () => view.container.querySelector<HTMLInputElement>('input[name="code"]')!;

/** Pastes `text` into the field as the browser does: the whole text, unless the field's maxlength cuts it. */
async function paste(text: string) {
  await act(async () => {
    const limit = input().maxLength;
    const kept = limit >= 0 ? text.slice(0, limit) : text;
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input(), kept);
    input().dispatchEvent(new Event('input', { bubbles: true }));
  });
}

it.each([
  ['a space before it', ' 123456'],
  ['a line break before it', '\n123456'],
  ['a space inside it', '123 456'],
  ['Thai digits with a space inside', '๑๒๓ ๔๕๖'],
  ['a dash inside it', '123-456'],
  ['full-width digits after a tab', '\t１２３４５６'],
])('a code pasted with %s is kept as its six digits', async (_, pasted) => {
  await renderInApp(view, <Harness />);
  await paste(pasted);
  expect(input().value).toBe('123456');
});

it('keeps no more than six digits', async () => {
  await renderInApp(view, <Harness />);
  await paste('1234567');
  expect(input().value).toBe('123456');
});
