// @vitest-environment jsdom
// The keyboard behaviour every dialog and sheet shares (useDialogFocus): focus moves in when it opens, Tab stays
// inside, Escape dismisses it when it can be, and the focus goes back to the control that opened it.
import { act, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { useDialogFocus } from '../../src/ui/use-dialog-focus.ts';
import { mountPoint } from './helpers.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();

function TestDialog({ name, onDismiss, auto }: { name: string; onDismiss?: () => void; auto?: boolean }) {
  const ref = useDialogFocus<HTMLDivElement>(onDismiss);
  return (
    <div ref={ref} role="dialog" aria-label={name} tabIndex={-1}>
      <button type="button">{`${name} first`}</button>
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

/** A page with an opener button and, when `open`, the dialog; the opener keeps the focus before it opens. */
function Page({ open, onDismiss, auto }: { open: boolean; onDismiss?: () => void; auto?: boolean }) {
  return (
    <>
      <button type="button">opener</button>
      {open && <TestDialog name="one" onDismiss={onDismiss} auto={auto} />}
    </>
  );
}

const focused = () =>
  document.activeElement === document.body
    ? 'nothing'
    : document.activeElement?.textContent || document.activeElement?.getAttribute('aria-label');
const button = (name: string) => [...document.querySelectorAll('button')].find((item) => item.textContent === name)!;
/** Presses `key` where the focus is; true when the hook took it over (the browser's own move was cancelled). */
function press(key: string, shiftKey = false): boolean {
  const event = new KeyboardEvent('keydown', { key, shiftKey, bubbles: true, cancelable: true });
  (document.activeElement ?? document.body).dispatchEvent(event);
  return event.defaultPrevented;
}

function openFromOpener(props: { onDismiss?: () => void; auto?: boolean } = {}) {
  act(() => view.root.render(<Page open={false} {...props} />));
  button('opener').focus();
  act(() => view.root.render(<Page open {...props} />));
}

describe('useDialogFocus', () => {
  it('moves the focus to the first control on open and gives it back to the opener on close', () => {
    openFromOpener();
    expect(focused()).toBe('one first');
    act(() => view.root.render(<Page open={false} />));
    expect(focused()).toBe('opener');
  });

  it("gives the focus to the page's heading when the opener is gone, or there was none", () => {
    function Leaving({ step }: { step: 'page' | 'dialog' | 'next' }) {
      return (
        <main>
          <h1 tabIndex={-1}>Next page</h1>
          {step === 'page' && <button type="button">opener</button>}
          {step !== 'next' && <TestDialog name="one" />}
        </main>
      );
    }
    act(() => view.root.render(<Leaving step="page" />));
    button('opener').focus();
    act(() => view.root.render(<Leaving step="dialog" />));
    act(() => view.root.render(<Leaving step="next" />));
    expect(focused()).toBe('Next page');
    // No opener: the focus was nowhere when the dialog opened.
    (document.activeElement as HTMLElement).blur();
    act(() => view.root.render(<Leaving step="dialog" />));
    act(() => view.root.render(<Leaving step="next" />));
    expect(focused()).toBe('Next page');
  });

  it('leaves the focus on a control that took it on purpose (autoFocus)', () => {
    openFromOpener({ auto: true });
    expect(focused()).toBe('one field');
    act(() => view.root.render(<Page open={false} />));
    expect(focused()).toBe('opener');
  });

  it('wraps Tab from the last control to the first and Shift+Tab from the first to the last, skipping disabled and hidden ones', () => {
    openFromOpener();
    expect(press('Tab', true)).toBe(true);
    expect(focused()).toBe('one last');
    expect(press('Tab')).toBe(true);
    expect(focused()).toBe('one first');
    // In between, the browser moves the focus itself.
    button('one first').focus();
    expect(press('Tab')).toBe(false);
  });

  it('brings a focus that left the dialog back in at its start', () => {
    openFromOpener();
    button('opener').focus();
    expect(press('Tab')).toBe(true);
    expect(focused()).toBe('one first');
  });

  it('calls onDismiss on Escape, and does nothing on Escape without one', () => {
    const onDismiss = vi.fn();
    openFromOpener({ onDismiss });
    expect(press('Escape')).toBe(true);
    expect(onDismiss).toHaveBeenCalledOnce();

    act(() => view.root.render(<Page open={false} />));
    openFromOpener();
    expect(press('Escape')).toBe(false);
    expect(focused()).toBe('one first');
  });

  it('lets only the newest of two open dialogs handle the keys, and returns the focus into the first when it closes', () => {
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
    act(() => view.root.render(<Stacked second={false} />));
    expect(focused()).toBe('one first');
    act(() => view.root.render(<Stacked second />));
    expect(focused()).toBe('two first');
    press('Tab', true);
    expect(focused()).toBe('two last');
    press('Escape');
    expect(inner).toHaveBeenCalledOnce();
    expect(outer).not.toHaveBeenCalled();
    act(() => view.root.render(<Stacked second={false} />));
    expect(focused()).toBe('one first');
  });

  it('focuses the dialog itself when it has no enabled control, and keeps Tab there', () => {
    function Empty() {
      const ref = useDialogFocus<HTMLDivElement>();
      return <div ref={ref} role="dialog" aria-label="empty" tabIndex={-1} />;
    }
    act(() => view.root.render(<Empty />));
    expect(focused()).toBe('empty');
    expect(press('Tab')).toBe(true);
    expect(focused()).toBe('empty');
  });

  it('uses the newest onDismiss the dialog was given (a dialog that becomes busy cannot be dismissed)', () => {
    const onDismiss = vi.fn();
    function Busy() {
      const [busy, setBusy] = useState(false);
      const ref = useDialogFocus<HTMLDivElement>(busy ? undefined : onDismiss);
      return (
        <div ref={ref} role="dialog" tabIndex={-1}>
          <button type="button" onClick={() => setBusy(true)}>
            send
          </button>
        </div>
      );
    }
    act(() => view.root.render(<Busy />));
    act(() => button('send').click());
    expect(press('Escape')).toBe(false);
    expect(onDismiss).not.toHaveBeenCalled();
  });
});
