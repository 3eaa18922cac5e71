// Bank cards (/pages/mine/setting/tradeAccount): the cards bound for withdrawals, deleting one after
// a confirmation, and adding one (every field required; at most MAX_BANK_CARDS). Opened from the withdraw
// page, adding a card returns there.
import { PayeeCooling } from '../../ui/PayeeCooling.tsx';
import { useEffect, useState } from 'react';
import { useSearch } from 'wouter';
import { useSnapshot } from 'valtio';
import { i18n } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { BANK_NAMES, MAX_BANK_CARDS } from '../../api-contract/constants.ts';
import { bankCards, type BankCard } from '../../api-contract/payouts.ts';
import { texts } from '../../api-contract/texts.ts';
import { useSubmit } from '../../lib/form.ts';
import { navigationHistory } from '../../lib/navigation.ts';
import { toast } from '../../lib/toast.ts';
import { Button } from '../../ui/forms.tsx';
import { ConfirmDialog, LoadFailure } from '../../ui/lists.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { BankCardForm } from './BankCardForm.tsx';
import { PencilIcon, PlusIcon, TrashIcon } from '../../ui/icons.tsx';
import { AddressLockCard } from './AddressLockCard.tsx';
import { PayeeLabelDialog } from './PayeeLabelDialog.tsx';
import {
  bankCardLimitText,
  deleteCard,
  loadBankCards,
  payoutsState,
  returnRouteAfterAdding,
  returnTo,
} from './payouts-store.ts';
import './payouts.css';

// A failed load shows on the page itself (with a retry), so the promise is not reported again.
const reload = () => void loadBankCards().catch(() => undefined);

export default function BankCardPage() {
  const search = useSearch();
  const { cards } = useSnapshot(payoutsState);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Readonly<BankCard> | null>(null);
  const [labelling, setLabelling] = useState<Readonly<BankCard> | null>(null);
  const full = cards.lists.length >= MAX_BANK_CARDS;
  const empty = cards.loaded && cards.lists.length === 0;

  useEffect(reload, []);

  const added = () => {
    const back = returnRouteAfterAdding(search, navigationHistory.entries);
    if (back) returnTo(back);
    else setAdding(false);
  };

  const remove = useSubmit(async () => {
    if (!deleting) return;
    await deleteCard(deleting.id);
    setDeleting(null);
    toast(i18n._(texts.deleted));
  });

  return (
    <div className="page payout-page">
      <NavBar title={<Trans>Bank card</Trans>} />
      <div className="page-body">
        <OfflineNote endpoints={[bankCards]} />
        <AddressLockCard />
        {!cards.loaded && cards.failure && <LoadFailure onRetry={reload}>{cards.failure}</LoadFailure>}
        {cards.lists.length > 0 && (
          <ul className="payout-list">
            {cards.lists.map((card) => (
              <BankCardItem
                key={card.id}
                card={card}
                usableBy={cards.usableBy[card.id] ?? 0}
                onDelete={() => setDeleting(card)}
                onLabel={() => setLabelling(card)}
              />
            ))}
          </ul>
        )}
        {empty && !adding && (
          <p className="muted form-note payout-intro">
            <Trans>Bind a bank card to withdraw to your bank account.</Trans>
          </p>
        )}
        {cards.loaded && !full && (adding || empty) && (
          <BankCardForm
            cardsBound={cards.lists.length}
            onAdded={added}
            onCancel={empty ? undefined : () => setAdding(false)}
          />
        )}
        {cards.loaded && !full && !adding && !empty && (
          <Button variant="secondary" onClick={() => setAdding(true)}>
            <PlusIcon className="btn-icon" />
            <Trans>Add bank card</Trans>
          </Button>
        )}
        {full && <p className="muted form-note">{bankCardLimitText()}</p>}
      </div>
      {labelling && (
        <PayeeLabelDialog kind="bank" id={labelling.id} label={labelling.label} onClose={() => setLabelling(null)} />
      )}
      {deleting && (
        <DeleteDialog
          card={deleting}
          busy={remove.busy}
          onCancel={() => setDeleting(null)}
          onConfirm={() => void remove.submit()}
        />
      )}
    </div>
  );
}

function DeleteDialog({
  card,
  busy,
  onCancel,
  onConfirm,
}: {
  card: Readonly<BankCard>;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const bank = bankLabel(card);
  const number = card.bank_number;
  return (
    <ConfirmDialog
      title={<Trans>Delete bank card</Trans>}
      confirm={<Trans>Delete</Trans>}
      busy={busy}
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      <p>
        <Trans>
          Delete the card <bdi>{bank}</bdi> <bdi dir="ltr">{number}</bdi>? It can no longer be chosen for withdrawals.
        </Trans>
      </p>
    </ConfirmDialog>
  );
}

const bankLabel = (card: Pick<BankCard, 'bank_code' | 'bank_name'>) => BANK_NAMES[card.bank_code] ?? card.bank_name;

function BankCardItem({
  card,
  usableBy,
  onDelete,
  onLabel,
}: {
  card: Readonly<BankCard>;
  usableBy: number;
  onDelete: () => void;
  onLabel: () => void;
}) {
  const { t } = useLingui();
  return (
    <li className="payout-bankcard">
      <div className="payout-bankcard-head">
        <span className="payout-chip">{card.bank_code}</span>
        <strong className="payout-bankcard-bank">{bankLabel(card)}</strong>
        <button
          type="button"
          className="icon-button payout-edit"
          onClick={onLabel}
          aria-label={t`Edit label`}
          title={t`Edit label`}
        >
          <PencilIcon />
        </button>
        <button
          type="button"
          className="icon-button payout-delete"
          onClick={onDelete}
          aria-label={t`Delete`}
          title={t`Delete`}
        >
          <TrashIcon />
        </button>
      </div>
      {card.label && <bdi className="payout-label">{card.label}</bdi>}
      <span className="payout-bankcard-number" dir="ltr">
        {card.bank_number}
      </span>
      <div className="payout-bankcard-foot">
        <bdi>{card.real_name}</bdi>
        <span dir="ltr">IFSC {card.ifsc}</span>
      </div>
      <PayeeCooling usableBy={usableBy} />
    </li>
  );
}
