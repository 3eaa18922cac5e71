// `npm run ops -- liabilities [build]`: the published roots of proof of liabilities, and a tree built now on demand
// (domain/liabilities.ts; the daily one is a job). A build publishes a root customers check against: one audit entry.
import { COMMAND_LINE } from '../domain/audit-log.ts';
import { buildLiabilitiesNow, publishedRoots } from '../domain/liabilities.ts';
import { unitsToDecimal } from '../../api-contract/liabilities.ts';
import { DEFAULT_EARN_TIMEZONE } from '../../api-contract/earn-days.ts';
import { UsageError, table, type Command } from './command-kit.ts';

export const LIABILITIES_USAGE = `  liabilities [build]                           proof of liabilities: the published roots (newest first) with their
                                                totals; build: a tree of every customer's balances as of now, published`;

const totalsOf = (assets: string[], totals: string[], decimals: number) =>
  assets.map((asset, at) => `${asset} ${unitsToDecimal(totals[at]!, decimals)}`).join(', ');

export const liabilitiesCommands: Record<string, Command> = {
  async liabilities({ db, now, earnTimeZone }, args) {
    if (args[0] === 'build') {
      const started = Date.now();
      const tree = await buildLiabilitiesNow(db, now, COMMAND_LINE, earnTimeZone ?? DEFAULT_EARN_TIMEZONE);
      return `Tree ${tree.id} as of ${tree.cutoff}: ${tree.leaves} customers, root ${tree.root} (${Date.now() - started} ms)\n${
        totalsOf(tree.assets, tree.totals, tree.decimals) || 'no balance'
      }`;
    }
    if (args.length) throw new UsageError('Use: liabilities, or liabilities build.');
    return table(
      (await publishedRoots(db)).map((tree) => ({
        id: tree.id,
        day: tree.day ?? '(on demand)',
        cutoff: tree.cutoff,
        customers: tree.leaves,
        root: tree.root,
        totals: totalsOf(tree.assets, tree.totals, tree.decimals),
      })),
      'No tree published yet.',
    );
  },
};
