// The blind box in the content role's rewards: the prize table in force with its odds,
// expected value and a restock per prize; the cost of a draw; and a new table to publish, edited row
// by row with its odds and expected value computed as it is written. Publishing sends the whole table
// as `ops prizes set` takes it, to the same rule (odds summing to 100 %); it applies to seeds committed
// from now on, so no customer's committed next roll ever meets a new table (server/domain/README.md, "Blind box").
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  PAY_WITH,
  WEIGHT_TOTAL,
  expectedValue,
  oddsPercent,
  type BoxPrize,
  type PayWith,
} from '../api-contract/blindbox.ts';
import {
  consoleBlindBox,
  consolePublishPrizeTable,
  consoleRestockPrize,
  consoleSetDrawCost,
  type ConsoleBlindBox,
} from '../api-contract/console-rewards.ts';
import { consoleApi } from './api.ts';
import { decimalsPerAsset, formatAmount, formatNumber, sentNumber, typedNumber } from './format.ts';
import { ErrorLine, useLoad } from './parts.tsx';
import { OutcomeLine, useSave } from './reward-parts.tsx';

/** A row of the table being written: every field as typed (no stock: unlimited). */
interface DraftPrize {
  key: number;
  name: string;
  asset: string;
  amount: string;
  weight: string;
  stock: string;
}
const DRAFT_FIELDS = ['name', 'asset', 'amount', 'weight', 'stock'] as const;

let nextKey = 0;
const draftOf = (prize: BoxPrize): DraftPrize => ({
  key: (nextKey += 1),
  name: prize.name,
  asset: prize.asset,
  amount: prize.amount,
  weight: String(prize.weight),
  stock: prize.stock === null ? '' : String(prize.stock),
});
/** The table as `ops prizes set` takes it: "<name>:<asset>:<amount>:<weight>[:<stock>];…". */
const writtenTable = (rows: DraftPrize[]) =>
  rows
    .map((row) =>
      [row.name.trim(), row.asset.trim(), ...[row.amount, row.weight, row.stock].map(sentNumber)]
        .filter((field, index) => index < 4 || field !== '')
        .join(':'),
    )
    .join(';');
/** A weight as typed, when it is one (for the odds shown while writing). */
const weightOf = (row: DraftPrize) => {
  const weight = typedNumber(row.weight);
  return /^[1-9]\d{0,6}$/.test(weight) ? Number(weight) : null;
};
/** "0.29 USDT + 30.00 POINT" from the expected value per asset, each written as a money amount. */
const expectedText = (expected: Record<string, string>) =>
  Object.entries(expected)
    .map(([asset, value]) => formatAmount(value, asset))
    .join(' + ') || '0';

export function BlindBoxPanel() {
  const [loaded, error] = useLoad(() => consoleApi(consoleBlindBox), 'blindbox');
  const [answered, setAnswered] = useState<ConsoleBlindBox | null>(null);
  const box = answered ?? loaded;
  if (!box) return <ErrorLine error={error} />;
  return (
    <div className="console-panel">
      <p className="console-notice">
        <Trans>
          A new table applies to seeds committed from now on: each customer’s current seed keeps the table it committed
          to until they rotate it. No draw already made changes.
        </Trans>
      </p>
      <h2>
        <Trans>Prizes in force</Trans>
      </h2>
      <PrizesInForce box={box} onAnswer={setAnswered} />
      <h2>
        <Trans>Cost of a draw</Trans>
      </h2>
      <DrawCost costs={box.costs} onAnswer={setAnswered} />
      <h2>
        <Trans>Publish a new table</Trans>
      </h2>
      <PrizeTableEditor prizes={box.prizes} onAnswer={setAnswered} />
    </div>
  );
}

function PrizesInForce({ box, onAnswer }: { box: ConsoleBlindBox; onAnswer: (box: ConsoleBlindBox) => void }) {
  const { t } = useLingui();
  if (!box.prizes.length)
    return (
      <p className="console-empty">
        <Trans>No table is in force: the blind box is closed.</Trans>
      </p>
    );
  // One asset's prizes line up: one number of decimals for all of them.
  const decimals = decimalsPerAsset(box.prizes.map((prize) => [prize.asset, prize.amount] as const));
  return (
    <>
      <div className="console-table-wrap">
        <table className="console-table console-terms" aria-label={t`Prizes in force`}>
          <thead>
            <tr>
              <th>{t`Prize`}</th>
              <th className="number">{t`Pays`}</th>
              <th className="number">{t`Weight`}</th>
              <th className="number">{t`Odds`}</th>
              <th>{t`Stock`}</th>
            </tr>
          </thead>
          <tbody>
            {box.prizes.map((prize) => (
              <RestockRow key={prize.id} prize={prize} decimals={decimals(prize.asset)} onAnswer={onAnswer} />
            ))}
          </tbody>
        </table>
      </div>
      <p className="console-muted console-prize-summary">
        <Trans>
          Odds sum to {box.odds_total}. Expected value of a draw: {expectedText(box.expected)}.
        </Trans>
      </p>
    </>
  );
}

function RestockRow({
  prize,
  decimals,
  onAnswer,
}: {
  prize: BoxPrize;
  /** The decimals the prize's amount is written with: those of every prize of its asset in the table. */
  decimals: number;
  onAnswer: (box: ConsoleBlindBox) => void;
}) {
  const { t } = useLingui();
  const shown = prize.stock === null ? 'unlimited' : String(prize.stock);
  const [stock, setStock] = useState(shown);
  const { busy, outcome, run, clear } = useSave();
  const restock = () =>
    run(async () =>
      onAnswer(await consoleApi(consoleRestockPrize, { id: String(prize.id), stock: sentNumber(stock) })),
    );
  return (
    <>
      <tr aria-label={prize.name} className={outcome ? 'console-terms-noted' : ''}>
        <td>{prize.name}</td>
        <td className="number">{formatAmount(prize.amount, prize.asset, decimals)}</td>
        <td className="number">{formatNumber(String(prize.weight))}</td>
        <td className="number">{prize.odds}</td>
        <td>
          <span className="console-inline">
            <input
              aria-label={t`Stock of ${prize.name}`}
              value={stock}
              className={stock !== shown ? 'console-changed' : ''}
              onChange={(event) => {
                setStock(event.target.value);
                clear();
              }}
            />
            <button type="button" className="small" disabled={busy || stock === shown} onClick={() => void restock()}>
              <Trans>Restock</Trans>
            </button>
          </span>
        </td>
      </tr>
      {outcome && (
        <tr className="console-terms-note">
          <td colSpan={5}>
            <OutcomeLine outcome={outcome} done={<Trans>Restocked.</Trans>} />
          </td>
        </tr>
      )}
    </>
  );
}

function DrawCost({ costs, onAnswer }: { costs: Record<PayWith, string>; onAnswer: (box: ConsoleBlindBox) => void }) {
  const { t } = useLingui();
  const [values, setValues] = useState(costs);
  const { busy, outcome, run, clear } = useSave();
  const labels: Record<PayWith, string> = { points: t`In points`, usdt: t`In USDT` };
  const changed = PAY_WITH.filter((pay) => values[pay] !== costs[pay]);
  const save = () =>
    run(async () => {
      const box = await consoleApi(
        consoleSetDrawCost,
        Object.fromEntries(changed.map((pay) => [pay, sentNumber(values[pay])])),
      );
      onAnswer(box);
      setValues(box.costs);
    });
  return (
    <div className="console-draw-cost">
      <div className="console-filters">
        {PAY_WITH.map((pay) => (
          <label key={pay}>
            {labels[pay]}
            <input
              inputMode="decimal"
              value={values[pay]}
              className={values[pay] !== costs[pay] ? 'console-changed' : ''}
              onChange={(event) => {
                setValues({ ...values, [pay]: event.target.value });
                clear();
              }}
            />
          </label>
        ))}
        <button type="button" className="primary" disabled={busy || changed.length === 0} onClick={() => void save()}>
          <Trans>Save the cost</Trans>
        </button>
        <span className="console-muted">
          <Trans>0 turns that way of paying off.</Trans>
        </span>
      </div>
      <OutcomeLine outcome={outcome} done={<Trans>Saved. Draws from now on cost this.</Trans>} />
    </div>
  );
}

function PrizeTableEditor({ prizes, onAnswer }: { prizes: BoxPrize[]; onAnswer: (box: ConsoleBlindBox) => void }) {
  const { t } = useLingui();
  const [rows, setRows] = useState(() => prizes.map(draftOf));
  const { busy, outcome, run, clear } = useSave();
  const edit = (next: DraftPrize[]) => {
    setRows(next);
    clear();
  };
  const set = (key: number, field: (typeof DRAFT_FIELDS)[number], value: string) =>
    edit(rows.map((row) => (row.key === key ? { ...row, [field]: value } : row)));
  const labels: Record<(typeof DRAFT_FIELDS)[number], string> = {
    name: t`Name`,
    asset: t`Asset`,
    amount: t`Amount`,
    weight: t`Weight (per million)`,
    stock: t`Stock (empty: unlimited)`,
  };
  const total = rows.reduce((sum, row) => sum + (weightOf(row) ?? 0), 0);
  const counted = rows.flatMap((row) => {
    const weight = weightOf(row);
    const amount = typedNumber(row.amount);
    return weight !== null && /^\d+(\.\d+)?$/.test(amount) ? [{ weight, asset: row.asset.trim(), amount }] : [];
  });
  const assets = [...new Set(counted.filter((row) => !/^0(\.0+)?$/.test(row.amount)).map((row) => row.asset))];
  const expected = Object.fromEntries(assets.map((asset) => [asset, expectedValue(counted, asset)]));
  const publish = () =>
    run(async () => {
      const box = await consoleApi(consolePublishPrizeTable, { table: writtenTable(rows) });
      onAnswer(box);
      setRows(box.prizes.map(draftOf));
    });
  return (
    <div>
      <div className="console-table-wrap">
        <table className="console-table console-terms console-prize-editor" aria-label={t`New prize table`}>
          <thead>
            <tr>
              {DRAFT_FIELDS.map((field) => (
                <th key={field}>{labels[field]}</th>
              ))}
              <th className="number">{t`Odds`}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => {
              const weight = weightOf(row);
              return (
                <tr key={row.key} aria-label={t`Prize ${index + 1}`}>
                  {DRAFT_FIELDS.map((field) => (
                    <td key={field}>
                      <input
                        aria-label={labels[field]}
                        className={`console-prize-${field}`}
                        inputMode={
                          field === 'name' || field === 'asset' ? undefined : field === 'amount' ? 'decimal' : 'numeric'
                        }
                        value={row[field]}
                        onChange={(event) => set(row.key, field, event.target.value)}
                      />
                    </td>
                  ))}
                  <td className="number">{weight === null ? '—' : oddsPercent(weight)}</td>
                  <td>
                    <button
                      type="button"
                      className="small"
                      aria-label={t`Remove prize ${index + 1}`}
                      onClick={() => edit(rows.filter((other) => other.key !== row.key))}
                    >
                      ×
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p
        className={
          total === WEIGHT_TOTAL ? 'console-muted console-prize-summary' : 'console-prize-summary console-prize-off'
        }
        role="note"
      >
        <Trans>
          Weights sum to {formatNumber(String(total))} of {formatNumber(String(WEIGHT_TOTAL))} ({oddsPercent(total)}).
          Expected value of a draw: {expectedText(expected)}.
        </Trans>
      </p>
      <div className="console-panel-actions">
        <button
          type="button"
          onClick={() =>
            edit([...rows, { key: (nextKey += 1), name: '', asset: 'POINT', amount: '0', weight: '', stock: '' }])
          }
        >
          <Trans>Add a prize</Trans>
        </button>
        <button type="button" className="primary" disabled={busy || rows.length === 0} onClick={() => void publish()}>
          <Trans>Publish this table</Trans>
        </button>
      </div>
      <OutcomeLine outcome={outcome} done={<Trans>Published. It applies to seeds committed from now on.</Trans>} />
    </div>
  );
}
