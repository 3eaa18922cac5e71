// A receipt as the customer reads it: the check's result first ("Signature valid", made on this device), then what
// the receipt says — the order, the deciding ticks with each exchange's price and trade id, the outcome and payout —
// and who signed it when. Shared by the order's receipt page and the page where anyone checks a shared receipt.
import type { ReactNode } from 'react';
import { i18n } from '@lingui/core';
import { Trans } from '@lingui/react/macro';
import { exchangeLabel } from '../../api-contract/markets.ts';
import {
  RECEIPT_KEYS_PATH,
  type ContractReceipt,
  type OptionReceipt,
  type ReceiptTick,
  type SignedReceipt,
} from '../../api-contract/receipts.ts';
import { serverUrl } from '../../lib/api.ts';
import { formatDateTime, formatExact, formatQuantity } from '../../lib/format.ts';
import { Ltr, Row } from '../../ui/records.tsx';
import { DUST_CONVERSION_NAME, ORDER_TYPE_NAMES } from '../../ui/order-types.ts';
import type { CheckState } from './receipts-store.ts';

/**
 * How anyone checks a receipt without this app: where the platform's public keys are published (a link to
 * /.well-known/receipt-keys.json on this server), the algorithm by its standard (Ed25519, RFC 8032) and what is signed
 * (the canonical JSON of `receipt`, RFC 8785). The full how-to is src/server/domain/RECEIPTS.md; this is its gist in
 * the customer's language.
 */
export function HowToCheck() {
  const keys = serverUrl(RECEIPT_KEYS_PATH);
  return (
    <section className="card receipt-how" aria-labelledby="receipt-how-title">
      <h2 id="receipt-how-title">
        <Trans>How to check a receipt yourself</Trans>
      </h2>
      <p className="receipt-note">
        <Trans>
          The platform's public keys are published at{' '}
          <a className="receipt-keys-link" href={keys} target="_blank" rel="noopener noreferrer" dir="ltr">
            {keys}
          </a>
          .
        </Trans>
      </p>
      <p className="receipt-note">
        <Trans>
          The signature is Ed25519 (RFC 8032), in base64, made with the key whose id is the receipt's key_id. It signs
          the UTF-8 bytes of the receipt object's canonical JSON (RFC 8785, the JSON Canonicalization Scheme): no
          spaces, keys sorted. Any standard Ed25519 library or OpenSSL can check it.
        </Trans>
      </p>
      <p className="receipt-note">
        <Trans>
          The receipt's signed_at must fall in that key's period, from its valid_from and before its valid_until: one
          key signs at a time, so a receipt dated outside its key's period was not signed by the platform then.
        </Trans>
      </p>
      <p className="receipt-note">
        <Trans>
          A key with a revoked_at time has been revoked: do not rely on any receipt it signed, whatever date it gives.
        </Trans>
      </p>
    </section>
  );
}

/** The check's result as a banner; `ms` (the signature check's time) is kept on it for the end-to-end test. */
export function CheckBanner({ check, ms, keyId }: { check: CheckState; ms: number | null; keyId: string }) {
  // A browser without Web Crypto (plain http) cannot check: said in a neutral tone, not as a receipt that failed.
  const tone =
    check === 'valid' ? 'good' : check === 'checking' ? 'wait' : check === 'no-crypto' ? 'unavailable' : 'bad';
  return (
    <section
      className={`card receipt-check ${tone}`}
      role="status"
      data-check={check}
      data-check-ms={ms === null ? undefined : ms.toFixed(2)}
    >
      <strong>
        {check === 'valid' ? (
          <Trans>Signature valid</Trans>
        ) : check === 'checking' ? (
          <Trans>Checking the signature…</Trans>
        ) : check === 'unknown-key' ? (
          <Trans>Signed with an unknown key</Trans>
        ) : check === 'outside-key-period' ? (
          <Trans>Signed by a retired key</Trans>
        ) : check === 'revoked-key' ? (
          <Trans>Signed by a revoked key</Trans>
        ) : check === 'no-crypto' ? (
          <Trans>Cannot check here</Trans>
        ) : check === 'malformed' ? (
          <Trans>This is not a receipt</Trans>
        ) : (
          <Trans>Signature not valid</Trans>
        )}
      </strong>
      <span>
        {check === 'valid' ? (
          <Trans>
            Checked on this device with the platform's published key <Ltr>{keyId}</Ltr>: this receipt is exactly as the
            platform signed it.
          </Trans>
        ) : check === 'checking' ? null : check === 'unknown-key' ? (
          <Trans>
            No published key of the platform has the id <Ltr>{keyId}</Ltr>.
          </Trans>
        ) : check === 'outside-key-period' ? (
          <Trans>
            The platform's key <Ltr>{keyId}</Ltr> was not signing at the time this receipt gives: the platform did not
            sign it then. Do not rely on it.
          </Trans>
        ) : check === 'revoked-key' ? (
          <Trans>
            The platform revoked its key <Ltr>{keyId}</Ltr> because a copy of it may be in other hands, which could sign
            any receipt with any date. Do not rely on it. The order's owner can open its receipt again in the app: the
            platform signs it anew with its current key.
          </Trans>
        ) : check === 'no-crypto' ? (
          <Trans>This browser offers Ed25519 signatures only over a secure (https) connection.</Trans>
        ) : check === 'malformed' ? (
          <Trans>Paste the whole receipt as it was shared: its receipt and its signature.</Trans>
        ) : (
          <Trans>
            This receipt was changed after it was signed, or the platform did not sign it. Do not rely on it.
          </Trans>
        )}
      </span>
    </section>
  );
}

/** A tick's price and time and the exchanges' prices (with trade ids) it was made of. */
function Tick({ tick }: { tick: ReceiptTick }) {
  return (
    <>
      <Ltr className="opt-num">{formatExact(tick.price)}</Ltr>
      <small className="muted">{formatDateTime(tick.at)}</small>
      {tick.constituents.length === 0 ? (
        <small className="muted">
          <Trans>Simulated price</Trans>
        </small>
      ) : (
        <ul className="receipt-constituents">
          {tick.constituents.map((c) => (
            <li key={`${c.exchange}${c.at}`}>
              {exchangeLabel(c.exchange)} <Ltr>{formatExact(c.price)}</Ltr>
              {c.trade_id && (
                <small className="muted">
                  {' '}
                  <Trans>
                    trade <Ltr>{c.trade_id}</Ltr>
                  </Trans>
                </small>
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

const amount = (value: string, asset: string) => (
  <Ltr>
    {formatExact(value)} {asset}
  </Ltr>
);

function OptionRows({ receipt }: { receipt: OptionReceipt }) {
  const { order } = receipt;
  return (
    <>
      <Row label={<Trans>Direction</Trans>}>{order.direction === 'up' ? <Trans>Up</Trans> : <Trans>Down</Trans>}</Row>
      <Row label={<Trans>Amount</Trans>}>{amount(order.amount, 'USDT')}</Row>
      <Row label={<Trans>Accepted at</Trans>}>{formatDateTime(order.accepted_at)}</Row>
      <Row label={<Trans>Start price</Trans>}>{receipt.start ? <Tick tick={receipt.start} /> : '—'}</Row>
      <Row label={<Trans>End price</Trans>}>{receipt.end ? <Tick tick={receipt.end} /> : '—'}</Row>
      <Row label={<Trans>Outcome</Trans>}>
        {receipt.outcome === 'win' ? (
          <Trans>Won</Trans>
        ) : receipt.outcome === 'loss' ? (
          <Trans>Lost</Trans>
        ) : receipt.outcome === 'tie' ? (
          <Trans>Same price</Trans>
        ) : (
          <Trans>Void</Trans>
        )}
      </Row>
      <Row label={<Trans>Payout</Trans>}>{amount(receipt.payout, 'USDT')}</Row>
      <Row label={<Trans>Settled at</Trans>}>{formatDateTime(receipt.settled_at)}</Row>
    </>
  );
}

function ContractRows({ receipt }: { receipt: ContractReceipt }) {
  const { order } = receipt;
  return (
    <>
      <Row label={<Trans>Side</Trans>}>{order.side === 'buy' ? <Trans>Buy</Trans> : <Trans>Sell</Trans>}</Row>
      <Row label={<Trans>Order type</Trans>}>
        {i18n._(ORDER_TYPE_NAMES[order.type])}
        {order.dust_conversion === 'true' && ` · ${i18n._(DUST_CONVERSION_NAME)}`}
      </Row>
      {order.trigger_price !== undefined && (
        <Row label={<Trans>Trigger price</Trans>}>{amount(order.trigger_price, 'USDT')}</Row>
      )}
      {order.price !== undefined && <Row label={<Trans>Limit price</Trans>}>{amount(order.price, 'USDT')}</Row>}
      <Row label={<Trans>Quantity</Trans>}>
        <Ltr>
          {formatQuantity(receipt.dealt_quantity)} {order.coin}
        </Ltr>
      </Row>
      {/* What the customer got, then the recorded price that filled it: a limit order fills at its own price once a
          recorded price reaches it, a market or stop order at the recorded price. */}
      <Row label={<Trans>Fill price</Trans>}>{amount(receipt.unit_price, 'USDT')}</Row>
      <Row label={<Trans>Recorded price</Trans>}>
        <Tick tick={receipt.tick} />
      </Row>
      <Row label={<Trans>Fee</Trans>}>{amount(receipt.fee, receipt.fee_asset)}</Row>
      <Row label={<Trans>Paid</Trans>}>{amount(receipt.spent, receipt.spent_asset)}</Row>
      <Row label={<Trans>Received</Trans>}>{amount(receipt.payout, receipt.payout_asset)}</Row>
      <Row label={<Trans>Filled at</Trans>}>{formatDateTime(receipt.filled_at)}</Row>
    </>
  );
}

/** What the receipt says, row by row; `actions` (share, download, copy) below it. */
export function ReceiptDetails({ signed, actions }: { signed: SignedReceipt; actions?: ReactNode }) {
  const { receipt } = signed;
  return (
    <section className="card">
      <h2 className="receipt-title">
        {receipt.kind === 'option' ? <Trans>Option receipt</Trans> : <Trans>Contract order receipt</Trans>}
      </h2>
      <dl className="detail-rows">
        <Row label={<Trans>Order number</Trans>}>
          <Ltr>{receipt.order.id}</Ltr>
        </Row>
        <Row label={<Trans>Coin</Trans>}>
          <Ltr>{receipt.order.coin}/USDT</Ltr>
        </Row>
        {receipt.order.account === 'practice' && (
          <Row label={<Trans>Account</Trans>}>
            <Trans>Practice (virtual money)</Trans>
          </Row>
        )}
        {receipt.kind === 'option' ? <OptionRows receipt={receipt} /> : <ContractRows receipt={receipt} />}
        <Row label={<Trans>Signed at</Trans>}>{formatDateTime(receipt.signed_at)}</Row>
        <Row label={<Trans>Key id</Trans>}>
          <Ltr>{receipt.key_id}</Ltr>
        </Row>
      </dl>
      {actions && <div className="receipt-actions">{actions}</div>}
    </section>
  );
}
