// Rows of a settings-style list, a bottom sheet to pick one option, a dialog and an empty state.
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useSnapshot } from 'valtio';
import { Link } from 'wouter';
import { Trans } from '@lingui/react/macro';
import { ChevronIcon, CompassIcon } from './icons.tsx';
import { Button } from './forms.tsx';
import { useKeyboardFocus } from './keyboard-focus-load.ts';
import { offlineData } from '../lib/offline.ts';

interface CellProps {
  label: ReactNode;
  value?: ReactNode;
  icon?: ReactNode;
  to?: string;
  onClick?: () => void;
  checked?: boolean;
}

export function Cell({ label, value, icon, to, onClick, checked }: CellProps) {
  const content = (
    <>
      {icon}
      <span className="cell-label">{label}</span>
      {value !== undefined && <span className="cell-value">{value}</span>}
      {(to || onClick) && checked === undefined && <ChevronIcon className="cell-chevron flip-rtl" />}
    </>
  );
  if (to) {
    return (
      <Link href={to} className="cell">
        {content}
      </Link>
    );
  }
  // A row that does nothing is no button: a keyboard user would stop on it and Enter would do nothing.
  if (!onClick && checked === undefined) return <div className="cell">{content}</div>;
  return (
    <button
      type="button"
      className="cell"
      onClick={onClick}
      role={checked === undefined ? undefined : 'menuitemradio'}
      aria-checked={checked}
    >
      {content}
    </button>
  );
}

interface SheetProps<T extends string> {
  title: ReactNode;
  options: readonly { value: T; label: ReactNode }[];
  value: T | null;
  onChoose: (value: T) => void;
  onClose: () => void;
}

export function Sheet<T extends string>({ title, options, value, onChoose, onClose }: SheetProps<T>) {
  const titleId = useId();
  useKeyboardFocus();
  return (
    <div className="sheet-backdrop" onClick={onClose} data-dismiss>
      <div
        className="sheet"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onClick={(event) => event.stopPropagation()}
      >
        <h2 id={titleId}>{title}</h2>
        <div className="cells" role="menu">
          {options.map((option) => (
            <Cell
              key={option.value}
              label={option.label}
              checked={option.value === value}
              onClick={() => onChoose(option.value)}
              value={option.value === value ? '✓' : ''}
            />
          ))}
        </div>
      </div>
    </div>
  );
}

interface ChoiceCellProps<T extends string> {
  /** The row's label, and the sheet's title (the same words). */
  label: ReactNode;
  title: string;
  icon?: ReactNode;
  options: readonly { value: T; label: ReactNode }[];
  /** The choice in force: its label is the row's value and it is ticked in the sheet. */
  value: T;
  /** Called with the option tapped (the sheet has closed). */
  onChoose: (value: T) => void;
}

/**
 * A settings row whose value is one of a few options (the language, the theme, the price colours): tapping it opens a
 * sheet of the options, the one in force ticked; choosing one, or tapping outside, closes it.
 */
export function ChoiceCell<T extends string>({ label, title, icon, options, value, onChoose }: ChoiceCellProps<T>) {
  const [choosing, setChoosing] = useState(false);
  return (
    <>
      <Cell
        icon={icon}
        label={label}
        value={options.find((option) => option.value === value)?.label}
        onClick={() => setChoosing(true)}
      />
      {choosing && (
        <Sheet
          title={title}
          options={options}
          value={value}
          onChoose={(option) => {
            setChoosing(false);
            onChoose(option);
          }}
          onClose={() => setChoosing(false)}
        />
      )}
    </>
  );
}

interface DialogProps {
  title: ReactNode;
  children: ReactNode;
  /** Its buttons, in a row kept at the dialog's foot while its content scrolls; null when the content has its own. */
  actions: ReactNode;
}

/**
 * A modal question. It takes the focus while open, keeps Tab inside and gives the focus back when it closes
 * (ui/keyboard-focus.ts); Escape presses its action marked `dismiss` (a Cancel), when it has one.
 */
export function Dialog({ title, children, actions }: DialogProps) {
  const titleId = useId();
  useKeyboardFocus();
  return (
    <div className="dialog-backdrop">
      <div className="dialog" role="alertdialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1}>
        <h2 id={titleId}>{title}</h2>
        <div>{children}</div>
        {actions != null && <div className="dialog-actions">{actions}</div>}
      </div>
    </div>
  );
}

interface ConfirmDialogProps {
  title: ReactNode;
  children: ReactNode;
  /** The confirming button's label. */
  confirm: ReactNode;
  /**
   * The dismissing button's label, where "Cancel" would read like the confirming one (revoking an order is "cancel"
   * in Arabic, Hindi and Thai: "Keep order" beside "Revoke order"); Cancel by default.
   */
  keep?: ReactNode;
  /** While the confirmed action runs, both buttons wait. */
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

/** A question with Cancel (or `keep`) and one confirming button (delete, log out, send a withdrawal). */
export function ConfirmDialog({ title, children, confirm, keep, busy, onCancel, onConfirm }: ConfirmDialogProps) {
  return (
    <Dialog
      title={title}
      actions={
        <>
          <Button variant="secondary" onClick={onCancel} disabled={busy} dismiss>
            {keep ?? <Trans>Cancel</Trans>}
          </Button>
          <Button onClick={onConfirm} disabled={busy}>
            {confirm}
          </Button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}

export function Empty({ children, action }: { children: ReactNode; action?: ReactNode }) {
  return (
    <div className="empty">
      <CompassIcon />
      <div>{children}</div>
      {action}
    </div>
  );
}

/** A load that failed: what it said, and a way to try again. */
export function LoadFailure({ children, onRetry }: { children: ReactNode; onRetry: () => void }) {
  useRetryWhenBackOnline(onRetry, true);
  return (
    <Empty
      action={
        <Button size="small" variant="secondary" onClick={onRetry}>
          <Trans>Try again</Trans>
        </Button>
      }
    >
      {children}
    </Empty>
  );
}

/**
 * Calls `retry` once when the app finds the network again (offlineData.online turns true: a call or the price stream
 * answered, or the browser's `online` event) while `failed`: a read that failed for want of a network (a dropped
 * connection counts) is asked again by itself, so its "You are offline" does not stay on screen after the network
 * has answered.
 */
export function useRetryWhenBackOnline(retry: () => void, failed: boolean): void {
  const { online } = useSnapshot(offlineData);
  const wasOnline = useRef(online);
  const latest = useRef({ retry, failed });
  latest.current = { retry, failed };
  useEffect(() => {
    const cameBack = online && !wasOnline.current;
    wasOnline.current = online;
    if (cameBack && latest.current.failed) latest.current.retry();
  }, [online]);
}
