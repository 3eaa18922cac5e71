// Wallet addresses for withdrawals (/pages/mine/walletList): alias, currency, chain, address (copyable)
// and the date added; deleting one after a confirmation; the way to add another.
import { PayeeCooling } from '../../ui/PayeeCooling.tsx';
import { useEffect, useState } from 'react';
import { useSearch } from 'wouter';
import { useSnapshot } from 'valtio';
import { i18n } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { MAX_WALLETS } from '../../api-contract/constants.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { wallets, type Wallet } from '../../api-contract/payouts.ts';
import { texts } from '../../api-contract/texts.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useSubmit } from '../../lib/form.ts';
import { navigate } from '../../lib/navigation.ts';
import { toast } from '../../lib/toast.ts';
import { Button } from '../../ui/forms.tsx';
import { ConfirmDialog, Empty, LoadFailure } from '../../ui/lists.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { CopyIcon, PencilIcon, PlusIcon, TrashIcon } from '../../ui/icons.tsx';
import { AddressLockCard } from './AddressLockCard.tsx';
import { PayeeLabelDialog } from './PayeeLabelDialog.tsx';
import { loadWallets, payoutsState, removeWallet, walletLimitText, withFrom } from './payouts-store.ts';
import { copyText } from '../../lib/clipboard.ts';
import { middleEllipsis } from '../../lib/format.ts';
import { Verbatim } from '../../ui/Verbatim.tsx';
import './payouts.css';

const reload = () => void loadWallets().catch(() => undefined);

export default function WalletListPage() {
  const { t } = useLingui();
  const search = useSearch();
  const list = useSnapshot(payoutsState).wallets;
  const [deleting, setDeleting] = useState<Readonly<Wallet> | null>(null);
  const [labelling, setLabelling] = useState<Readonly<Wallet> | null>(null);
  const full = list.lists.length >= MAX_WALLETS;
  const add = () => navigate(withFrom(ROUTES.addWallet, search));

  useEffect(reload, []);

  const remove = useSubmit(async () => {
    if (!deleting) return;
    await removeWallet(deleting.id);
    setDeleting(null);
    toast(i18n._(texts.deleted));
  });

  const addButton = (
    <Button onClick={add} disabled={full}>
      <PlusIcon className="btn-icon" />
      <Trans>Add wallet</Trans>
    </Button>
  );

  return (
    <div className="page payout-page">
      <NavBar
        title={<Trans>Wallets</Trans>}
        right={
          !full && (
            <button
              type="button"
              className="icon-button"
              onClick={add}
              aria-label={t`Add wallet`}
              title={t`Add wallet`}
            >
              <PlusIcon />
            </button>
          )
        }
      />
      <div className="page-body">
        <OfflineNote endpoints={[wallets]} />
        <AddressLockCard />
        {!list.loaded && list.failure && <LoadFailure onRetry={reload}>{list.failure}</LoadFailure>}
        {list.loaded && list.lists.length === 0 && (
          <Empty action={<div className="payout-empty-action">{addButton}</div>}>
            <Trans>No wallet added yet. Add a wallet address to withdraw crypto to it.</Trans>
          </Empty>
        )}
        {list.lists.length > 0 && (
          <>
            <ul className="payout-list">
              {list.lists.map((wallet) => (
                <WalletItem
                  key={wallet.id}
                  wallet={wallet}
                  usableBy={list.usableBy[wallet.id] ?? 0}
                  onDelete={() => setDeleting(wallet)}
                  onLabel={() => setLabelling(wallet)}
                />
              ))}
            </ul>
            {full ? <p className="muted form-note">{walletLimitText()}</p> : addButton}
          </>
        )}
      </div>
      {labelling && (
        <PayeeLabelDialog kind="wallet" id={labelling.id} label={labelling.alias} onClose={() => setLabelling(null)} />
      )}
      {deleting && (
        <DeleteDialog
          wallet={deleting}
          busy={remove.busy}
          onCancel={() => setDeleting(null)}
          onConfirm={() => void remove.submit()}
        />
      )}
    </div>
  );
}

function DeleteDialog({
  wallet,
  busy,
  onCancel,
  onConfirm,
}: {
  wallet: Readonly<Wallet>;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const alias = wallet.alias;
  return (
    <ConfirmDialog
      title={<Trans>Delete wallet</Trans>}
      confirm={<Trans>Delete</Trans>}
      busy={busy}
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      <p>
        <Trans>
          Delete the wallet <Verbatim text={alias} />? It can no longer be chosen for withdrawals.
        </Trans>
      </p>
    </ConfirmDialog>
  );
}

function WalletItem({
  wallet,
  usableBy,
  onDelete,
  onLabel,
}: {
  wallet: Readonly<Wallet>;
  usableBy: number;
  onDelete: () => void;
  onLabel: () => void;
}) {
  const { t } = useLingui();
  const date = formatDateTime(wallet.created_at);
  return (
    <li className="card payout-wallet">
      <div className="payout-wallet-head">
        <bdi className="payout-wallet-alias">{wallet.alias}</bdi>
        <span className="payout-chip soft">{wallet.currency}</span>
        <span className="payout-chip outline">{wallet.chain}</span>
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
      <div className="payout-address">
        <code dir="ltr" title={wallet.address}>
          {middleEllipsis(wallet.address)}
        </code>
        <button
          type="button"
          className="icon-button payout-copy"
          onClick={() => void copyText(wallet.address)}
          aria-label={t`Copy address`}
          title={t`Copy address`}
        >
          <CopyIcon />
        </button>
      </div>
      <span className="payout-date muted">
        <Trans>
          Added <time dateTime={wallet.created_at}>{date}</time>
        </Trans>
      </span>
      <PayeeCooling usableBy={usableBy} />
    </li>
  );
}
