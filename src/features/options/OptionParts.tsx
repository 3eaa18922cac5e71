// Small pieces the option screens share: the direction tag, the live countdown, the rule icon.
import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { useSnapshot } from 'valtio';
import { offlineData } from '../../lib/offline.ts';
import { PracticeTag } from '../../ui/AccountSwitch.tsx';
import type { Direction, OptionOrder } from '../../api-contract/options.ts';
import { formatCountdown } from './option-format.ts';
import { remainingMs, useServerNow } from './server-clock.ts';

export function DirectionTag({ direction }: { direction: Direction }) {
  return (
    <span className={`opt-direction ${direction}`}>
      {direction === 'up' ? <Trans>Buy up</Trans> : <Trans>Buy short</Trans>}
    </span>
  );
}

/**
 * mm:ss to the end time on the server's clock; "Opening…" while the order waits for its start tick
 * (it has no end time yet), "Settling…" once due, until the result arrives. Offline, an order waiting for either says
 * it waits for the network instead: the app asks for it again as soon as the network is back, not before.
 */
export function Countdown({ endAt, large = false }: { endAt: string | null; large?: boolean }) {
  const now = useServerNow();
  const { online } = useSnapshot(offlineData);
  const className = large ? 'opt-countdown large' : 'opt-countdown';
  const left = endAt === null ? 0 : remainingMs(endAt, now);
  if (!online && left <= 0) {
    return (
      <span className={`${className} settling`} role="status">
        <Trans>Waiting for the network</Trans>
      </span>
    );
  }
  if (endAt === null) return <Opening className={className} />;
  if (left <= 0) {
    return (
      <span className={`${className} settling`} role="timer">
        <Trans>Settling…</Trans>
      </span>
    );
  }
  return (
    <span className={className} role="timer">
      <span className="opt-num">{formatCountdown(left)}</span>
    </span>
  );
}

/** An accepted order waiting for the first tick recorded after it: its start price. */
export function Opening({ className = '' }: { className?: string }) {
  return (
    <span className={`${className} opening`} role="status">
      <Trans>Opening…</Trans>
    </span>
  );
}

/** "1 min", "15 min": an option's expiry is chosen in minutes. */
export function Minutes({ minutes }: { minutes: number }) {
  return <Trans>{minutes} min</Trans>;
}

export function RuleIcon({ className }: { className?: string }) {
  return (
    <svg
      className={className}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d="M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM9.6 9.2a2.5 2.5 0 1 1 3.3 2.4c-.6.2-.9.8-.9 1.4v.5M12 17h.01" />
    </svg>
  );
}

/**
 * The first line of an order wherever it is shown: pair, direction, expiry, "Practice" for the practice account's,
 * then the caller's corner.
 */
export function OrderHead({
  order,
  children,
}: {
  order: Readonly<Pick<OptionOrder, 'code' | 'direction' | 'minutes' | 'practice'>>;
  children?: ReactNode;
}) {
  return (
    <div className="opt-order-head">
      <strong>{order.code}/USDT</strong>
      <DirectionTag direction={order.direction} />
      <span className="muted">
        <Minutes minutes={order.minutes} />
      </span>
      {order.practice && <PracticeTag />}
      {children}
    </div>
  );
}
