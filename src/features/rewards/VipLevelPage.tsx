// VIP level (/pages/mine/vipLevel; levels follow cumulative recharge): the user's level and cumulative
// recharge, what the next level still takes, and the table of levels — each from its realValue up to its value, in USDT
// and in the user's display currency. The user's own level is highlighted.
import { useEffect, useId } from 'react';
import { useSnapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import type { LevelProgress, VipLevel } from '../../api-contract/rewards.ts';
import { useDisplayCurrency } from '../../lib/fiat.ts';
import { formatMoney } from '../../lib/format.ts';
import { session } from '../../lib/session.ts';
import { LoadFailure } from '../../ui/lists.tsx';
import { Money } from '../../ui/Money.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { currentLevel, levelRange, loadVip, progressPercent, rewardsState } from './rewards-store.ts';
import './rewards.css';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { levelProgress, vipLevels } from '../../api-contract/rewards.ts';

const reload = () => void loadVip().catch(() => undefined);

export default function VipLevelPage() {
  const { levels, progress, vipLoaded, vipFailure } = useSnapshot(rewardsState);
  const { user } = useSnapshot(session);
  const mine = currentLevel(levels, progress, user?.recharge_total);
  useEffect(reload, []);

  return (
    <div className="page rewards-page">
      <NavBar title={<Trans>VIP level</Trans>} />
      <div className="page-body">
        <OfflineNote endpoints={[vipLevels, levelProgress]} />
        {!vipLoaded && vipFailure && <LoadFailure onRetry={reload}>{vipFailure}</LoadFailure>}
        {vipLoaded && progress && (
          <>
            <LevelCard progress={progress} levels={levels} />
            <LevelTable levels={levels} mine={mine} />
            <p className="muted rewards-note">
              <Trans>
                Your level follows your cumulative recharge: each level starts where the one before ends. Recharges
                count once they are approved.
              </Trans>
            </p>
          </>
        )}
      </div>
    </div>
  );
}

function LevelCard({ progress, levels }: { progress: Readonly<LevelProgress>; levels: readonly VipLevel[] }) {
  const fiat = useDisplayCurrency();
  const percent = progressPercent(progress, levels);
  const level = progress.level;
  const name = progress.name;
  const needed = formatMoney(progress.needed);
  const nextName = progress.next_name;
  // The bar is named by its label: the cumulative recharge, as a share of the next level's.
  const labelId = useId();
  return (
    <section className="card vip-card">
      <div className="vip-card-head">
        <span className="vip-card-level" dir="ltr">
          VIP {level}
        </span>
        {level > 0 && name && name !== `VIP${level}` && <bdi className="vip-card-name">{name}</bdi>}
        {level === 0 && (
          <span className="vip-card-name">
            <Trans>No level yet</Trans>
          </span>
        )}
      </div>
      <span className="vip-card-label" id={labelId}>
        <Trans>Cumulative recharge</Trans>
      </span>
      <Money amount={progress.recharge_total} asset="USDT" fiat={fiat} className="vip-card-amount" />
      <div
        className="vip-progress"
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <span style={{ inlineSize: `${percent}%` }} />
      </div>
      <p className="vip-card-next">
        {progress.next_level === null ? (
          <Trans>You have reached the highest level.</Trans>
        ) : (
          <Trans>
            Recharge <strong dir="ltr">{needed} USDT</strong> more to reach <bdi>{nextName}</bdi>.
          </Trans>
        )}
      </p>
    </section>
  );
}

function LevelTable({ levels, mine }: { levels: readonly VipLevel[]; mine: number }) {
  const fiat = useDisplayCurrency();
  const { t } = useLingui();
  // With large text the rows stack, each amount under its column's name (data-label, shown by the style sheet).
  const fromLabel = t`From (USDT)`;
  const upToLabel = t`Up to (USDT)`;
  return (
    <section className="card flush vip-table">
      <h2>
        <Trans>Levels</Trans>
      </h2>
      <table>
        <thead>
          <tr>
            <th scope="col">
              <Trans>Level</Trans>
            </th>
            <th scope="col">{fromLabel}</th>
            <th scope="col">{upToLabel}</th>
          </tr>
        </thead>
        <tbody>
          {levels.map((level) => {
            const { from, to } = levelRange(level);
            const current = level.level === mine;
            return (
              <tr
                key={level.level}
                className={current ? 'current' : undefined}
                aria-current={current ? 'true' : undefined}
              >
                <th scope="row">
                  <bdi>{level.name}</bdi>
                  {current && (
                    <small>
                      <Trans>Your level</Trans>
                    </small>
                  )}
                </th>
                <td data-label={fromLabel}>
                  <Money amount={from} asset="USDT" fiat={fiat} />
                </td>
                <td data-label={upToLabel}>
                  <Money amount={to} asset="USDT" fiat={fiat} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
