// Pieces of the withdraw form: the payee picker, the fee / total / received rows, the missing-setup prompt
// dialog and the confirmation shown before the request is sent.
import { useId, useRef, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { Trans } from '@lingui/react/macro';
import { i18n } from '@lingui/core';
import type { PayeeKind, WithdrawRule } from '../../api-contract/funds.ts';
import type { FiatRate } from '../../api-contract/markets.ts';
import { maskBankNumber, type BankCard, type Wallet } from '../../api-contract/payouts.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { texts } from '../../api-contract/texts.ts';
import { navigate } from '../../lib/navigation.ts';
import { Button, FieldProblem, useRefusedField } from '../../ui/forms.tsx';
import { Cell, ConfirmDialog, Dialog, Sheet } from '../../ui/lists.tsx';
import { Money } from '../../ui/Money.tsx';
import { Ltr, Row } from '../../ui/records.tsx';
import { formatPercent } from './funds-format.ts';
import { middleEllipsis } from '../../lib/format.ts';
import type { WithdrawPrompt, WithdrawQuote } from './withdraw-store.ts';
// The withdraw page's own look: opened straight (a link, a reload), no other funds page has brought it.
import './funds.css';

export function CardLabel({ card }: { card: Readonly<BankCard> }) {
  return (
    <span className="funds-payee">
      <strong>
        {card.label && (
          <>
            <bdi className="funds-payee-label">{card.label}</bdi>{' '}
          </>
        )}
        <bdi>{card.bank_name}</bdi> <Ltr>{maskBankNumber(card.bank_number)}</Ltr>
      </strong>
      <bdi className="muted">{card.real_name}</bdi>
    </span>
  );
}

export function WalletLabel({ wallet }: { wallet: Readonly<Wallet> }) {
  return (
    <span className="funds-payee">
      <strong>
        <bdi>{wallet.alias}</bdi>{' '}
        <span className="funds-tag">
          {wallet.currency} · {wallet.chain}
        </span>
      </strong>
      <Ltr className="muted funds-mono">{middleEllipsis(wallet.address)}</Ltr>
    </span>
  );
}

interface PickerProps {
  target: PayeeKind;
  cards: readonly Readonly<BankCard>[];
  wallets: readonly Readonly<Wallet>[];
  chosen: number | undefined;
  loaded: boolean;
  onChoose: (id: number) => void;
}

/**
 * The chosen payee; a tap opens the list of the others. With none, a way to add one. The server's refusal of the payee
 * (the request's `target_id`: deleted meanwhile, still cooling off, not allowed by the address lock) shows under it,
 * with the focus on the payee, until another is chosen.
 */
export function PayeePicker({ target, cards, wallets, chosen, loaded, onChoose }: PickerProps) {
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const refused = useRefusedField('target_id', box);
  const problemId = useId();
  const bank = target === 'bank';
  const options = bank
    ? cards.map((card) => ({ value: String(card.id), label: <CardLabel card={card} /> }))
    : wallets.map((wallet) => ({ value: String(wallet.id), label: <WalletLabel wallet={wallet} /> }));
  const current = options.find((option) => option.value === String(chosen));
  if (!loaded) return <div className="card flush cells funds-payee-cell" />;
  const cell = current ? (
    <Cell
      label={current.label}
      onClick={options.length > 1 ? () => setOpen(true) : undefined}
      value={options.length > 1 ? <Trans>Change</Trans> : undefined}
    />
  ) : (
    <Cell
      label={bank ? <Trans>Bind a bank card</Trans> : <Trans>Add a wallet</Trans>}
      to={bank ? ROUTES.bankCard : ROUTES.addWallet}
    />
  );
  return (
    <>
      <div
        className="card flush cells funds-payee-cell"
        ref={box}
        // Focusable by the refusal alone (not a stop of the keyboard's own): the payee it is about.
        tabIndex={-1}
        aria-describedby={refused.text ? problemId : undefined}
      >
        {cell}
      </div>
      {refused.text && (
        <FieldProblem id={problemId} className="funds-payee-problem">
          {refused.text}
        </FieldProblem>
      )}
      {open && current && (
        <Sheet
          title={bank ? <Trans>Choose a bank card</Trans> : <Trans>Choose a wallet</Trans>}
          options={options}
          value={current.value}
          onChoose={(value) => {
            refused.edited();
            onChoose(Number(value));
            setOpen(false);
          }}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}

/** Fee, total deducted and what arrives, each with its display-currency equivalent. */
export function QuoteRows({
  quote,
  rule,
  fiat,
}: {
  quote: WithdrawQuote | null;
  rule: Readonly<WithdrawRule>;
  fiat: FiatRate | null;
}) {
  const asset = rule.asset;
  const percent = formatPercent(rule.fee_rate);
  const dash = <span className="muted">—</span>;
  return (
    <dl className="detail-rows">
      <Row label={<Trans>Fee ({percent})</Trans>}>
        {quote ? <Money amount={quote.fee} asset={asset} fiat={fiat} /> : dash}
      </Row>
      <Row label={<Trans>Total deducted</Trans>}>
        {quote ? <Money amount={quote.total} asset={asset} fiat={fiat} /> : dash}
      </Row>
      <Row label={<Trans>You receive</Trans>}>
        {quote ? <Money className="funds-strong" amount={quote.actual} asset={asset} fiat={fiat} /> : dash}
      </Row>
    </dl>
  );
}

const PROMPT_ACTION: Record<WithdrawPrompt, { to: string; label: ReactNode }> = {
  noPayPassword: { to: ROUTES.tradePassword, label: <Trans>Set password</Trans> },
  noBankCard: { to: ROUTES.bankCard, label: <Trans>Bind card</Trans> },
  noWallet: { to: ROUTES.addWallet, label: <Trans>Add wallet</Trans> },
};

/** What is missing before a withdrawal (payment password, bank card or wallet), with the way to set it up. */
export function PromptDialog({ prompt, onClose }: { prompt: WithdrawPrompt; onClose: () => void }) {
  const action = PROMPT_ACTION[prompt];
  return (
    <Dialog
      title={<Trans>Before you withdraw</Trans>}
      actions={
        <>
          <Button variant="secondary" onClick={onClose} dismiss>
            <Trans>Cancel</Trans>
          </Button>
          <Button onClick={() => navigate(action.to)}>{action.label}</Button>
        </>
      }
    >
      <p>{i18n._(texts[prompt])}</p>
    </Dialog>
  );
}

interface ConfirmProps {
  payee: ReactNode;
  quote: WithdrawQuote;
  rule: Readonly<WithdrawRule>;
  fiat: FiatRate | null;
  bank: boolean;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

export function ConfirmWithdrawalDialog({ payee, quote, rule, fiat, bank, busy, onCancel, onConfirm }: ConfirmProps) {
  return (
    <ConfirmDialog
      title={<Trans>Confirm the withdrawal</Trans>}
      confirm={<Trans>Confirm</Trans>}
      busy={busy}
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      <dl className="detail-rows">
        <Row label={<Trans>To</Trans>}>{payee}</Row>
        <Row label={<Trans>Amount</Trans>}>
          <Money amount={quote.amount} asset={rule.asset} />
        </Row>
      </dl>
      <QuoteRows quote={quote} rule={rule} fiat={fiat} />
      {bank && (
        <p className="funds-note">
          <Trans>Paid to your bank account in baht at the rate of the moment of the request.</Trans>
        </p>
      )}
    </ConfirmDialog>
  );
}

export function AddPayeeLink({ target }: { target: PayeeKind }) {
  return (
    <Link href={target === 'bank' ? ROUTES.bankCard : ROUTES.walletList} className="link-button funds-manage">
      {target === 'bank' ? <Trans>Manage bank cards</Trans> : <Trans>Manage wallets</Trans>}
    </Link>
  );
}
