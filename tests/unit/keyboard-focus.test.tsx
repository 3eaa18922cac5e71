// @vitest-environment jsdom
// Where the keyboard's focus goes (ui/keyboard-focus.ts): into a dialog when it opens, round its controls on Tab, out
// by its marked way out on Escape, back to the control that opened it when it closes; a new page's heading after a
// navigation.
import { act, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { pageShown } from '../../src/ui/keyboard-focus.ts';
import { mountPoint } from './helpers.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();

function TestDialog({ name, onDismiss, auto }: { name: string; onDismiss?: () => void; auto?: boolean }) {
  return (
    <div role="dialog" aria-modal="true" aria-label={name} tabIndex={-1}>
      <button type="button" onClick={onDismiss} data-dismiss={onDismiss ? true : undefined}>{`${name} first`}</button>
      <button type="button" disabled>
        {`${name} disabled`}
      </button>
      <input aria-label={`${name} field`} autoFocus={auto} />
      <button type="button" hidden>
        {`${name} hidden`}
      </button>
      <button type="button">{`${name} last`}</button>
    </div>
  );
}

/** A page with its heading, an opener button and, when `open`, the dialog. */
function Page({ open, onDismiss, auto }: { open: boolean; onDismiss?: () => void; auto?: boolean }) {
  return (
    <main>
      <h1 tabIndex={-1}>Page</h1>
      <button type="button">opener</button>
      {open && <TestDialog name="one" onDismiss={onDismiss} auto={auto} />}
    </main>
  );
}

/** Renders, then lets the module's watch of the document see the change (a microtask later). */
async function render(element: React.ReactNode): Promise<void> {
  act(() => view.root.render(element));
  await Promise.resolve();
}
const focused = () =>
  document.activeElement === document.body
    ? 'nothing'
    : document.activeElement?.getAttribute('aria-label') || document.activeElement?.textContent;
const button = (name: string) => [...document.querySelectorAll('button')].find((item) => item.textContent === name)!;
/** Presses `key` where the focus is; true when the module took it over (the browser's own move was cancelled). */
function press(key: string, shiftKey = false): boolean {
  const event = new KeyboardEvent('keydown', { key, shiftKey, bubbles: true, cancelable: true });
  (document.activeElement ?? document.body).dispatchEvent(event);
  return event.defaultPrevented;
}

async function openFromOpener(props: { onDismiss?: () => void; auto?: boolean } = {}) {
  await render(<Page open={false} {...props} />);
  button('opener').focus();
  await render(<Page open {...props} />);
}

describe('dialogs', () => {
  it('take the focus on their first control when they open and give it back to the opener when they close', async () => {
    await openFromOpener();
    expect(focused()).toBe('one first');
    await render(<Page open={false} />);
    expect(focused()).toBe('opener');
  });

  it('leave the focus on a control that took it on purpose (autoFocus)', async () => {
    await openFromOpener({ auto: true });
    expect(focused()).toBe('one field');
    await render(<Page open={false} />);
    expect(focused()).toBe('opener');
  });

  it('wrap Tab from the last control to the first and Shift+Tab from the first to the last, past disabled and hidden ones', async () => {
    await openFromOpener();
    expect(press('Tab', true)).toBe(true);
    expect(focused()).toBe('one last');
    expect(press('Tab')).toBe(true);
    expect(focused()).toBe('one first');
    // In between, the browser moves the focus itself.
    button('one first').focus();
    expect(press('Tab')).toBe(false);
  });

  it('bring a focus that left them back in at their start', async () => {
    await openFromOpener();
    button('opener').focus();
    expect(press('Tab')).toBe(true);
    expect(focused()).toBe('one first');
  });

  it('press their way out on Escape, and do nothing on Escape without one', async () => {
    const onDismiss = vi.fn();
    await openFromOpener({ onDismiss });
    expect(press('Escape')).toBe(true);
    expect(onDismiss).toHaveBeenCalledOnce();

    await render(<Page open={false} />);
    await openFromOpener();
    expect(press('Escape')).toBe(false);
    expect(focused()).toBe('one first');
  });

  it('leave Escape alone while their way out is disabled (a dialog at work)', async () => {
    const onDismiss = vi.fn();
    function Busy() {
      const [busy, setBusy] = useState(false);
      return (
        <div role="dialog" aria-modal="true" tabIndex={-1}>
          <button type="button" onClick={onDismiss} disabled={busy} data-dismiss>
            cancel
          </button>
          <button type="button" onClick={() => setBusy(true)}>
            send
          </button>
        </div>
      );
    }
    await render(<Busy />);
    act(() => button('send').click());
    expect(press('Escape')).toBe(false);
    expect(onDismiss).not.toHaveBeenCalled();
  });

  it('let only the newest of two open dialogs handle the keys; closed, it gives the focus back into the first', async () => {
    const outer = vi.fn();
    const inner = vi.fn();
    function Stacked({ second }: { second: boolean }) {
      return (
        <>
          <TestDialog name="one" onDismiss={outer} />
          {second && <TestDialog name="two" onDismiss={inner} />}
        </>
      );
    }
    await render(<Stacked second={false} />);
    expect(focused()).toBe('one first');
    await render(<Stacked second />);
    expect(focused()).toBe('two first');
    press('Tab', true);
    expect(focused()).toBe('two last');
    press('Escape');
    expect(inner).toHaveBeenCalledOnce();
    expect(outer).not.toHaveBeenCalled();
    await render(<Stacked second={false} />);
    expect(focused()).toBe('one');
  });

  it('focus themselves when they have no enabled control, and keep Tab there', async () => {
    await render(<div role="dialog" aria-modal="true" aria-label="empty" tabIndex={-1} />);
    expect(focused()).toBe('empty');
    expect(press('Tab')).toBe(true);
    expect(focused()).toBe('empty');
  });

  it("give the focus to the page's heading when the opener is gone, or there was none", async () => {
    function Leaving({ step }: { step: 'page' | 'dialog' | 'next' }) {
      return (
        <main>
          <h1 tabIndex={-1}>Next page</h1>
          {step === 'page' && <button type="button">opener</button>}
          {step !== 'next' && <TestDialog name="one" />}
        </main>
      );
    }
    await render(<Leaving step="page" />);
    button('opener').focus();
    await render(<Leaving step="dialog" />);
    await render(<Leaving step="next" />);
    expect(focused()).toBe('Next page');
    // No opener: the focus was nowhere when the dialog opened.
    (document.activeElement as HTMLElement).blur();
    await render(<Leaving step="dialog" />);
    await render(<Leaving step="next" />);
    expect(focused()).toBe('Next page');
  });
});

describe('a focused control that goes away', () => {
  it("gives the focus to the page's heading, or to the open dialog it was in", async () => {
    function Redrawn({ shown, version }: { shown: boolean; version: number }) {
      return (
        <main>
          <h1 tabIndex={-1}>List</h1>
          {/* A new key: React draws another element in its place, as a list redrawn does. */}
          {shown && (
            <button key={version} type="button">
              more
            </button>
          )}
        </main>
      );
    }
    await render(<Redrawn shown version={1} />);
    button('more').focus();
    await render(<Redrawn shown version={2} />);
    expect(focused()).toBe('List');
    // A focus the person moved nowhere (a tap on the page's background) stays there when the list is drawn again later.
    button('more').focus();
    (document.activeElement as HTMLElement).blur();
    await new Promise((resolve) => setTimeout(resolve, 0));
    await render(<Redrawn shown={false} version={2} />);
    expect(focused()).toBe('nothing');

    function InDialog({ version }: { version: number }) {
      return (
        <main>
          <h1 tabIndex={-1}>Page</h1>
          <div role="dialog" aria-modal="true" aria-label="sheet" tabIndex={-1}>
            <button key={version} type="button">
              choice
            </button>
          </div>
        </main>
      );
    }
    await render(<InDialog version={1} />);
    button('choice').focus();
    await render(<InDialog version={2} />);
    expect(focused()).toBe('sheet');
  });
});

describe('a new page', () => {
  it('gives its heading the focus once the page draws it', async () => {
    await render(<main />);
    pageShown();
    expect(focused()).toBe('nothing');
    await render(
      <main>
        <h1>Withdraw</h1>
      </main>,
    );
    expect(focused()).toBe('Withdraw');
    expect(document.activeElement?.getAttribute('tabindex')).toBe('-1');
  });

  it('leaves the focus on a field of the page that took it, and in an open dialog', async () => {
    function Form() {
      return (
        <main>
          <h1 tabIndex={-1}>Log in</h1>
          <input aria-label="Username" autoFocus />
        </main>
      );
    }
    await render(<Form />);
    pageShown();
    expect(focused()).toBe('Username');

    await render(<Page open />);
    pageShown();
    expect(focused()).toBe('one first');
  });
});
