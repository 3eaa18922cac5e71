// The share page's friends (our addition): how the referral reward is computed (the setting that pays it), then the
// people who registered with the code, newest first and masked by the server — when they joined, their VIP level,
// whether they are certified, and what each earned the customer as ledger entries, linking to the statement.
import { useEffect } from 'react';
import { useSnapshot, type Snapshot } from 'valtio';
import { Link } from 'wouter';
import { Trans } from '@lingui/react/macro';
import { referralRewardOff, type ReferralRule, type ReferredFriend } from '../../api-contract/share.ts';
import { ledgerKindName } from '../../api-contract/ledger-kinds.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { i18n } from '@lingui/core';
import { formatDate, formatDateTime, formatMoney } from '../../lib/format.ts';
import { Money } from '../../ui/Money.tsx';
import { ListView, Ltr, StatusBadge } from '../../ui/records.tsx';
import { friendsState, loadFriends } from './share-store.ts';

const reload = () => void loadFriends().catch(() => undefined);

/** The reward's rule as the server answered it, then the friend list a page at a time. */
export function FriendList({ rule }: { rule: Readonly<ReferralRule> }) {
  const list = useSnapshot(friendsState);
  useEffect(reload, []);
  return (
    <section className="share-friends" aria-labelledby="share-friends-title">
      <h2 id="share-friends-title" className="share-friends-title">
        <Trans>Your friends</Trans>
      </h2>
      <RewardRule rule={rule} />
      <ListView
        list={list}
        retry={reload}
        more={() => loadFriends({ more: true })}
        empty={<Trans>Nobody has registered with your code yet.</Trans>}
      >
        {list.lists.map((friend) => (
          <FriendItem key={friend.id} friend={friend} />
        ))}
      </ListView>
    </section>
  );
}

function RewardRule({ rule }: { rule: Readonly<ReferralRule> }) {
  if (referralRewardOff(rule))
    return (
      <p className="muted share-rule" data-reward="off">
        <Trans>Referral reward: off. A friend&apos;s certification earns you nothing at the moment.</Trans>
      </p>
    );
  const amount = formatMoney(rule.amount);
  const asset = rule.asset;
  return (
    <p className="muted share-rule" data-reward="on">
      <Trans>
        Referral reward:{' '}
        <bdi dir="ltr">
          {amount} {asset}
        </bdi>{' '}
        for each friend you invite, credited once when their primary certification is verified.
      </Trans>
    </p>
  );
}

function FriendItem({ friend }: { friend: Snapshot<ReferredFriend> }) {
  const joined = formatDate('date', new Date(friend.joined_at));
  const level = friend.vip_level;
  return (
    <li className="record-row share-friend">
      <div className="record-row-head">
        <span className="record-row-title">
          <Ltr>{friend.name}</Ltr> {friend.contact && <Ltr className="muted">{friend.contact}</Ltr>}
        </span>
        {friend.certified ? (
          <StatusBadge tone="good">
            <Trans>Certified</Trans>
          </StatusBadge>
        ) : (
          <StatusBadge tone="wait">
            <Trans>Not certified yet</Trans>
          </StatusBadge>
        )}
      </div>
      <div className="record-row-foot muted">
        <span>
          <Trans>
            Joined <bdi dir="ltr">{joined}</bdi>
          </Trans>
        </span>
        <span>
          <Trans>VIP {level}</Trans>
        </span>
      </div>
      {friend.earned.map((entry) => (
        <Link key={entry.id} href={ROUTES.accountDetails} className="share-earned">
          <span>{ledgerKindName(entry.kind, (text) => i18n._(text))}</span>
          <Money amount={entry.amount} asset={entry.asset} signed />
          <span className="muted" dir="ltr">
            {formatDateTime(entry.created_at)}
          </span>
        </Link>
      ))}
    </li>
  );
}
