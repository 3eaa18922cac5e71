// Recharge (/pages/Recharge/Recharge, custom nav bar): the ways to pay in, crypto addresses by
// chain and bank accounts; one opens its payment page (qrpay or bankpay). The record is a tap away.
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import { rechargeChannels, type RechargeChannel } from '../../api-contract/funds.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { errorText } from '../../lib/api.ts';
import { balanceDecimalsOf, refreshBalances, usdtAvailable, userBalances } from '../../lib/balances.ts';
import { useDisplayCurrency } from '../../lib/fiat.ts';
import { formatMoney } from '../../lib/format.ts';
import { toast } from '../../lib/toast.ts';
import { Cell, Empty } from '../../ui/lists.tsx';
import { Money } from '../../ui/Money.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { balances as balancesCall } from '../../api-contract/markets.ts';
import { RecordLink } from '../../ui/records.tsx';
import { RecordIcon } from '../../ui/icons.tsx';
import { loadChannels, rechargeState } from './recharge-store.ts';
import './funds.css';
import { Amount } from '../../ui/Amount.tsx';

export default function RechargePage() {
  const { t } = useLingui();
  const { channels, channelsLoaded } = useSnapshot(rechargeState);

  useEffect(() => {
    loadChannels().catch((error) => toast(errorText(error)));
    refreshBalances().catch(() => undefined);
  }, []);

  const crypto = channels.filter((channel) => channel.kind === 'crypto');
  const banks = channels.filter((channel) => channel.kind === 'bank');
  return (
    <div className="page">
      <NavBar
        title={<Trans>Recharge</Trans>}
        right={<RecordLink to={ROUTES.rechargeRecord} label={t`Recharge record`} />}
      />
      <div className="page-body">
        <OfflineNote endpoints={[rechargeChannels, balancesCall]} />
        <BalanceCard />
        {crypto.length > 0 && (
          <section className="funds-section">
            <h2 className="funds-section-title">
              <Trans>Crypto deposit</Trans>
            </h2>
            <div className="card flush cells">
              {crypto.map((channel) => (
                <ChannelCell key={channel.id} channel={channel} />
              ))}
            </div>
          </section>
        )}
        {banks.length > 0 && (
          <section className="funds-section">
            <h2 className="funds-section-title">
              <Trans>Bank transfer</Trans>
            </h2>
            <div className="card flush cells">
              {banks.map((channel) => (
                <ChannelCell key={channel.id} channel={channel} />
              ))}
            </div>
          </section>
        )}
        {channelsLoaded && channels.length === 0 && (
          <Empty>
            <Trans>No recharge method is available right now.</Trans>
          </Empty>
        )}
        <p className="muted funds-note">
          <Trans>
            Pay first, then report the payment on the next page. The amount is credited to your balance once it has been
            reviewed.
          </Trans>
        </p>
        <div className="card flush cells">
          <Cell
            icon={
              <span className="cell-icon">
                <RecordIcon />
              </span>
            }
            label={<Trans>Recharge record</Trans>}
            to={ROUTES.rechargeRecord}
          />
        </div>
      </div>
    </div>
  );
}

function BalanceCard() {
  const fiat = useDisplayCurrency();
  const balances = useSnapshot(userBalances);
  return (
    <section className="card funds-balance">
      <span className="funds-balance-label">
        <Trans>Available balance</Trans>
      </span>
      {balances.updatedAt ? (
        <Money
          className="funds-balance-amount"
          amount={usdtAvailable(balances)}
          asset="USDT"
          fiat={fiat}
          decimals={balanceDecimalsOf(usdtAvailable(balances), 'USDT')}
        />
      ) : (
        <span className="funds-balance-amount">—</span>
      )}
    </section>
  );
}

function ChannelCell({ channel }: { channel: Readonly<RechargeChannel> }) {
  const crypto = channel.kind === 'crypto';
  const to = `${crypto ? ROUTES.rechargeQr : ROUTES.rechargeBank}?id=${channel.id}`;
  const minimum = formatMoney(channel.min_amount);
  const currency = channel.currency;
  return (
    <Cell
      icon={
        <span className="funds-coin" aria-hidden="true">
          {currency.slice(0, 4)}
        </span>
      }
      label={
        <span className="funds-channel">
          <bdi>{crypto ? channel.name : channel.bank_name || channel.name}</bdi>
          <span className="muted">
            <Trans>
              Minimum <Amount value={minimum} unit={currency} />
            </Trans>
          </span>
        </span>
      }
      value={crypto ? chainNotNamed(channel) : <Trans>Pay in {currency}</Trans>}
      to={to}
    />
  );
}

/** The chain, unless the channel's name already says it ("USDT (TRC20)"). */
const chainNotNamed = (channel: Readonly<RechargeChannel>) =>
  channel.chain && !channel.name.includes(channel.chain) ? channel.chain : undefined;
