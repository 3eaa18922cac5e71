// Pieces the lock-up screens share: a period in days, a product's card in the list, its rates,
// the calculator's rows, the no-early-redemption note and the confirmation before subscribing.
import { Link } from 'wouter';
import { Plural, Trans } from '@lingui/react/macro';
import type { LockupProduct } from '../../api-contract/lockup.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { formatMoney } from '../../lib/format.ts';
import { AmountRange } from '../../ui/AmountRange.tsx';
import { ChevronIcon } from '../../ui/icons.tsx';
import { ConfirmDialog } from '../../ui/lists.tsx';
import { Money } from '../../ui/Money.tsx';
import { Ltr, Row } from '../../ui/records.tsx';
import { CalendarDay } from '../../ui/CalendarDay.tsx';
import { formatAnnualRate, formatDailyRate } from './lockup-format.ts';
import type { LockupPeriod } from './lockup-store.ts';
import type { LockupQuote } from './lockup-form.ts';
import './lockup.css';

/** "7 days", "1 day". */
export function Days({ days }: { days: number }) {
  return <Plural value={days} one="# day" other="# days" />;
}

/** "100.00 – 50,000.00 USDT": what one subscription may be, in the reader's language (AmountRange). */
export function Limits({ product }: { product: Readonly<Pick<LockupProduct, 'min_amount' | 'max_amount'>> }) {
  return <AmountRange min={product.min_amount} max={product.max_amount} asset="USDT" className="lockup-limits" />;
}

/** The daily rate large, its annual equivalent (daily × 365) beside it. */
export function Rates({ product }: { product: Readonly<Pick<LockupProduct, 'daily_rate'>> }) {
  const annual = formatAnnualRate(product.daily_rate);
  return (
    <div className="lockup-rates">
      <span className="lockup-rate-main">
        <Ltr className="lockup-rate lockup-num">{formatDailyRate(product.daily_rate)}</Ltr>
        <span className="muted">
          <Trans>Daily rate</Trans>
        </span>
      </span>
      <span className="lockup-rate-side">
        <Ltr className="lockup-num">{annual}</Ltr>
        <span className="muted">
          <Trans>Annual (daily × 365)</Trans>
        </span>
      </span>
    </div>
  );
}

export function ProductCard({ product }: { product: Readonly<LockupProduct> }) {
  return (
    <li>
      <Link href={`${ROUTES.lockUpDetails}?id=${product.id}`} className="card lockup-product">
        <span className="lockup-product-head">
          <bdi className="lockup-product-name">{product.name}</bdi>
          <span className="lockup-tag">
            <Days days={product.days} />
          </span>
          <ChevronIcon className="lockup-chevron flip-rtl" />
        </span>
        <Rates product={product} />
        <span className="lockup-product-foot">
          <span>
            <span className="muted">
              <Trans>Per subscription</Trans>
            </span>{' '}
            <Limits product={product} />
          </span>
          {product.remaining !== null && (
            <span>
              <span className="muted">
                <Trans>Remaining</Trans>
              </span>{' '}
              <Ltr className="lockup-num">{formatMoney(product.remaining)} USDT</Ltr>
            </span>
          )}
        </span>
      </Link>
    </li>
  );
}

/** The calculator: income per day and over the period, what comes back, the first and last days. */
export function QuoteRows({ quote, days, period }: { quote: LockupQuote | null; days: number; period: LockupPeriod }) {
  const dash = <span className="muted">—</span>;
  return (
    <dl className="detail-rows">
      <Row label={<Trans>Income per day</Trans>}>{quote ? <Money amount={quote.daily} asset="USDT" /> : dash}</Row>
      <Row
        label={
          <Trans>
            Total income (<Days days={days} />)
          </Trans>
        }
      >
        {quote ? <Money className="lockup-strong" amount={quote.total} asset="USDT" /> : dash}
      </Row>
      <Row label={<Trans>Principal + income</Trans>}>{quote ? <Money amount={quote.back} asset="USDT" /> : dash}</Row>
      <Row label={<Trans>First income day</Trans>}>
        <CalendarDay day={period.start} />
      </Row>
      <Row label={<Trans>End date (principal back)</Trans>}>
        <CalendarDay day={period.end} />
      </Row>
    </dl>
  );
}

export function NoEarlyRedemption() {
  return (
    <p className="lockup-warning">
      <Trans>
        No early redemption: the principal stays locked until the end of its last day, then comes back to your USDT
        balance with the last income.
      </Trans>
    </p>
  );
}

interface ConfirmProps {
  product: Readonly<LockupProduct>;
  quote: LockupQuote;
  period: LockupPeriod;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

export function ConfirmSubscriptionDialog({ product, quote, period, busy, onCancel, onConfirm }: ConfirmProps) {
  return (
    <ConfirmDialog
      title={<Trans>Confirm the subscription</Trans>}
      confirm={<Trans>Subscribe</Trans>}
      busy={busy}
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      <dl className="detail-rows">
        <Row label={<Trans>Product</Trans>}>
          <bdi>{product.name}</bdi>
        </Row>
        <Row label={<Trans>Amount</Trans>}>
          <Money className="lockup-strong" amount={quote.amount} asset="USDT" />
        </Row>
        <Row label={<Trans>Daily rate</Trans>}>
          <Ltr className="lockup-num">{formatDailyRate(product.daily_rate)}</Ltr>
        </Row>
        <Row label={<Trans>Period</Trans>}>
          <Days days={product.days} />
        </Row>
      </dl>
      <QuoteRows quote={quote} days={product.days} period={period} />
      <NoEarlyRedemption />
    </ConfirmDialog>
  );
}
