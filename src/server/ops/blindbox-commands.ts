// Operator commands of the blind box: the prize table (published odds), restocking and the cost.
// Fair by construction: no command touches a draw, a seed or a result; a new table applies to
// the draws after it, and the old prizes stay (deactivated) for the draws that reference them.
import Big from 'big.js';
import { PAY_WITH, WEIGHT_TOTAL, expectedValue, oddsPercent } from '../../contract/blindbox.ts';
import { activePrizes, blindBoxSettings, publishPrizeTable, restockPrize, setBoxCosts, type NewPrize } from '../domain/blindbox.ts';
import { UsageError, idOf, keyValues, plain, table, type Command } from './command-kit.ts';

export const BLINDBOX_USAGE = `  prizes                                        the blind box prize table: odds, stock, expected value
  prizes set "<name>:<asset>:<amount>:<weight>[:<stock>];…"
                                                replace the table (weights in parts per million summing
                                                to 1000000; no stock = unlimited; amount 0 = thanks for playing)
  prize <id> stock=<n|unlimited>                restock a prize
  blindbox-cost [points=100] [usdt=1]           the cost of one draw (0 = that way of paying is off)`;

const ASSET = /^[A-Z][A-Z0-9]{1,11}$/;
const AMOUNT = /^\d{1,12}(\.\d{1,8})?$/;

/** Reads the table of `prizes set` (publishing refuses odds that do not sum to 100 %). */
export function parsePrizeTable(spec: string): NewPrize[] {
  const parts = spec
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean);
  if (!parts.length) throw new UsageError('Give the table: prizes set "<name>:<asset>:<amount>:<weight>[:<stock>];…"');
  return parts.map((part, index) => {
    const [name = '', asset = '', amount = '', weight = '', stock, ...extra] = part.split(':').map((field) => field.trim());
    if (!name || extra.length) throw new UsageError(`Cannot read "${part}": use <name>:<asset>:<amount>:<weight>[:<stock>].`);
    if (!ASSET.test(asset)) throw new UsageError(`"${asset}" is not an asset code (USDT, POINT, BTC…).`);
    if (!AMOUNT.test(amount)) throw new UsageError(`"${amount}" is not an amount (0 or more, up to 8 decimals).`);
    if (!/^[1-9]\d{0,6}$/.test(weight)) throw new UsageError(`The weight "${weight}" must be a whole number of parts per million, at least 1.`);
    if (stock !== undefined && !/^\d{1,9}$/.test(stock)) throw new UsageError(`The stock "${stock}" must be a whole number (leave it out for unlimited).`);
    return { name, asset, amount, weight: Number(weight), stock: stock === undefined ? null : Number(stock), sort: index + 1 };
  });
}

export const blindBoxCommands: Record<string, Command> = {
  async prizes({ db }, [action, spec, ...extra]) {
    if (action === 'set') {
      if (spec === undefined || extra.length) throw new UsageError('Quote the whole table: prizes set "<name>:<asset>:<amount>:<weight>[:<stock>];…"');
      const prizes = parsePrizeTable(spec);
      await db.transaction((tx) => publishPrizeTable(tx, prizes));
      // A seed already committed keeps its table: the operator knows server seeds, so a new table must never meet a known next roll.
      return `Published a table of ${prizes.length} prizes (100 %); it applies to seeds committed from now on (each customer's current seed keeps its table until they rotate it).\n\n${await prizeTable(db)}`;
    }
    if (action !== undefined) throw new UsageError('Use: prizes, or prizes set "<table>".');
    return prizeTable(db);
  },
  async prize({ db }, [id, ...changes]) {
    const prizeId = idOf(id);
    const { stock } = keyValues(changes, ['stock'] as const);
    if (stock === undefined || !/^(\d{1,9}|unlimited)$/.test(stock)) throw new UsageError('Use: prize <id> stock=<n|unlimited>.');
    const prize = await restockPrize(db, prizeId, stock === 'unlimited' ? null : Number(stock));
    return `Prize ${prizeId} (${prize.name}) now has ${stock === 'unlimited' ? 'unlimited stock' : `a stock of ${stock}`}.`;
  },
  async 'blindbox-cost'({ db }, changes) {
    const given = keyValues(changes, PAY_WITH);
    const values = Object.values(given);
    if (!values.length) throw new UsageError('Use: blindbox-cost points=100 usdt=1.');
    for (const value of values) if (!AMOUNT.test(value)) throw new UsageError(`"${value}" is not an amount.`);
    await db.transaction((tx) => setBoxCosts(tx, given));
    const rows = await blindBoxSettings(db);
    return table(
      rows.map((row) => ({ key: row.key, value: row.value })),
      'No cost is set.',
    );
  },
};

async function prizeTable(db: Parameters<Command>[0]['db']): Promise<string> {
  const rows = await activePrizes(db);
  const listed = table(
    rows.map((row) => ({
      id: row.id,
      name: row.name,
      prize: `${plain(row.amount)} ${row.asset}`,
      weight: row.weight,
      odds: oddsPercent(row.weight),
      stock: row.stock ?? 'unlimited',
    })),
    'No active prizes: the blind box is closed.',
  );
  const total = rows.reduce((sum, row) => sum + row.weight, 0);
  const assets = [...new Set(rows.filter((row) => new Big(row.amount).gt(0)).map((row) => row.asset))];
  const expected = assets.map((asset) => `${expectedValue(rows, asset)} ${asset}`).join(' + ') || '0';
  return `${listed}\n\nOdds sum to ${oddsPercent(total)}${total === WEIGHT_TOTAL ? '' : ' — the box refuses draws until a table sums to 100 %'}. Expected value per draw: ${expected}.`;
}
