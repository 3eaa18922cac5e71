// `npm run ops -- reconcile`: the books' check now (domain/reconciliation.ts), as the job runs it:
// after any run in progress, recorded as a run, a new mismatch written to the audit log. It
// changes no balance.
import { reconcileNow } from '../domain/reconciliation.ts';
import { table, type Command } from './command-kit.ts';

export const RECONCILE_USAGE = `  reconcile                                     check the books now: balances against the ledger, frozen amounts
                                                against reserves, nothing negative, one payout per settled option
                                                (corrects nothing: a new mismatch goes to the audit log)`;

export const reconcileCommands: Record<string, Command> = {
  async reconcile({ db }) {
    const run = await reconcileNow(db);
    const took = run.finishedAt.getTime() - run.startedAt.getTime();
    const head = `Run ${run.id} by ${run.process} at ${run.startedAt.toISOString()} (${took} ms): ${run.checkedBalances} balances checked, ${
      run.ok
        ? 'the books add up.'
        : `${run.mismatches.length} ${run.mismatches.length === 1 ? 'mismatch' : 'mismatches'} (${run.audited} new, written to the audit log).`
    }`;
    if (run.ok) return head;
    return `${head}\n${table(
      run.mismatches.map((mismatch) => ({
        check: mismatch.kind,
        what: mismatch.target,
        user: mismatch.user_id,
        asset: mismatch.asset,
        expected: mismatch.expected,
        found: mismatch.found,
      })),
      '',
    )}`;
  },
};
