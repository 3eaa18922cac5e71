// @vitest-environment jsdom
// A refusal shown under a field takes the same form's earlier toast off the screen (the check's "Please enter your
// login password!" would otherwise stand beside "The login password is wrong!" under the box), and only that form's:
// a toast shown since by anything else stays.
import { useState } from 'react';
import { act } from 'react';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { useSubmit } from '../../src/lib/form.ts';
import { ApiError } from '../../src/lib/api.ts';
import { toast, toasts } from '../../src/lib/toast.ts';
import { Button, Form, TextField } from '../../src/ui/forms.tsx';
import { mountPoint, resetClientState } from './helpers.ts';

const view = mountPoint();
beforeEach(resetClientState);
afterEach(resetClientState);

const WRONG = new ApiError('The login password is wrong!', 0, 200, 'password');

/** A form with one password field: its check asks for a password, its call refuses it (about `password`). */
function PasswordForm({ before }: { before?: () => void }) {
  const [password, setPassword] = useState('');
  const { busy, submit, refusals } = useSubmit(
    async () => {
      before?.();
      throw WRONG;
    },
    () => (password ? null : 'Please enter your login password!'),
  );
  return (
    <Form onSubmit={submit} refusals={refusals}>
      <TextField label="Login password" name="password" value={password} onChange={setPassword} />
      <Button type="submit" disabled={busy}>
        Save
      </Button>
    </Form>
  );
}

const box = () => view.container.querySelector('input')!;
const problem = () => view.container.querySelector('.error-text')?.textContent ?? null;

/** Types `text` into the field as a person would (React's onChange). */
function type(text: string) {
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  setValue.call(box(), text);
  box().dispatchEvent(new Event('input', { bubbles: true }));
}

async function save() {
  await act(async () => view.container.querySelector('form')!.requestSubmit());
}

it('the check’s toast goes when the refusal shows under the field', async () => {
  await act(async () => view.root.render(<PasswordForm />));
  await save();
  expect(toasts.current?.text).toBe('Please enter your login password!');
  act(() => type('wrongpass1'));
  await save();
  expect(problem()).toBe('The login password is wrong!');
  expect(box().getAttribute('aria-invalid')).toBe('true');
  expect(toasts.current).toBeNull();
  expect(box().value).toBe('wrongpass1');
});

it('a toast shown since by something else stays beside it', async () => {
  const other = () => toast('Order filled');
  await act(async () => view.root.render(<PasswordForm before={other} />));
  await save();
  act(() => type('wrongpass1'));
  await save();
  expect(problem()).toBe('The login password is wrong!');
  expect(toasts.current?.text).toBe('Order filled');
});
