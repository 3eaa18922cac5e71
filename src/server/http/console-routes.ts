// The operator console's calls (api-contract/console.ts): thin, like every entry point. The review actions
// call the same functions as `npm run ops` (domain/operator-reviews.ts), each in one transaction
// with its audit entry; the reads are domain/console-views.ts. The role is checked before any
// handler runs (handle.ts, the endpoint's `console`).
import * as c from '../../api-contract/console.ts';
import {
  actorOf,
  addOperator,
  changeOperatorPassword,
  prepareOperatorPassword,
  disableOperator,
  listOperators,
  operatorView,
  signInOperator,
  signOutOperator,
} from '../domain/operators.ts';
import {
  approveCertificationAs,
  approveRechargeAs,
  approveWithdrawalAs,
  rejectCertificationAs,
  rejectRechargeAs,
  rejectWithdrawalAs,
} from '../domain/operator-reviews.ts';
import * as views from '../domain/console-views.ts';
import * as q from '../../api-contract/console-queues.ts';
import { claimItem, claimNext, releaseItem, reviewQueue } from '../domain/review-queues.ts';
import { searchAudit } from '../domain/audit-log.ts';
import { listedPhones } from '../domain/phone-duplicates.ts';
import type { HandlerContext } from './context.ts';
import type { RouteModule } from './route-module.ts';

const actor = ({ operator, ip }: HandlerContext) => actorOf(operator, ip);
const claimant = (ctx: HandlerContext) => ({ operatorId: ctx.operator.id, name: ctx.operator.name, actor: actor(ctx) });
const nameOf = (ctx: HandlerContext, userId: number) => views.nameOf(ctx.db, userId);

export const consoleRoutes: RouteModule = ({ route, settings }) => {
  route(
    c.consoleSignIn,
    (input, { db, clock, twoFactorKey, ip }) => signInOperator(db, input, twoFactorKey, ip, clock.now()),
    { perMinute: settings.authRateLimitPerMinute },
  );
  route(c.consoleMe, async (_input, { operator }) =>
    operatorView({ name: operator.name, role: operator.role, mustChangePassword: operator.mustChangePassword }),
  );
  route(
    c.consoleChangePassword,
    (input, ctx) =>
      changeOperatorPassword(
        ctx.db,
        ctx.operator,
        { password: input.password, newPassword: input.new_password },
        ctx.ip,
        ctx.clock.now(),
        ctx.secrets,
      ),
    // The current password verified and the new one hashed before the call's transaction opens.
    {
      ahead: async (input, ctx) => {
        const given = { password: input.password, newPassword: input.new_password };
        ctx.secrets = await prepareOperatorPassword(ctx.db, ctx.operator, given, ctx.clock.now());
      },
    },
  );
  route(c.consoleSignOut, async (_input, ctx) => {
    await ctx.db.transaction((tx) => signOutOperator(tx, ctx.operator, ctx.ip, ctx.clock.now()));
    return null;
  });

  route(c.consoleQueues, (_input, { db }) => views.reviewQueues(db));

  route(c.consoleRecharges, (input, { db, operatorConsole }) =>
    views.rechargeList(db, input.status, operatorConsole.fourEyesUsdt),
  );
  route(c.consoleRecharge, (input, { db, operatorConsole, operator }) =>
    views.rechargeDetail(db, Number(input.id), operatorConsole.fourEyesUsdt, operator.name),
  );
  route(c.consoleApproveRecharge, async (input, ctx) => {
    const details = { blockHeight: input.block_height || undefined, remark: input.remark || undefined };
    const { fourEyesUsdt } = ctx.operatorConsole;
    const { row, approvals, needed } = await ctx.db.transaction((tx) =>
      approveRechargeAs(tx, actor(ctx), Number(input.id), details, ctx.clock.now(), fourEyesUsdt),
    );
    return views.rechargeView(row, await nameOf(ctx, row.userId), { approvals, needed });
  });
  route(c.consoleRejectRecharge, async (input, ctx) => {
    const row = await ctx.db.transaction((tx) =>
      rejectRechargeAs(tx, actor(ctx), Number(input.id), input.reason, ctx.clock.now()),
    );
    return views.rechargeWithApprovals(ctx.db, row, await nameOf(ctx, row.userId), ctx.operatorConsole.fourEyesUsdt);
  });

  route(c.consoleWithdrawals, (input, { db, operatorConsole }) =>
    views.withdrawalList(db, input.status, operatorConsole.fourEyesUsdt),
  );
  route(c.consoleWithdrawal, async (input, { db, operatorConsole, operator, payeeCoolingMs, clock }) => {
    const detail = await views.withdrawalDetail(db, Number(input.id), operatorConsole.fourEyesUsdt, {
      coolingMs: payeeCoolingMs,
      now: clock.now(),
    });
    return { ...detail, approved_by_you: detail.withdrawal.approvals.includes(operator.name) };
  });
  route(c.consoleApproveWithdrawal, async (input, ctx) => {
    const { fourEyesUsdt } = ctx.operatorConsole;
    const { row, approvals, needed } = await ctx.db.transaction((tx) =>
      approveWithdrawalAs(
        tx,
        actor(ctx),
        Number(input.id),
        { hash: input.hash || undefined },
        ctx.clock.now(),
        fourEyesUsdt,
      ),
    );
    return views.withdrawalView(row, await nameOf(ctx, row.userId), { approvals, needed });
  });
  route(c.consoleRejectWithdrawal, async (input, ctx) => {
    const row = await ctx.db.transaction((tx) =>
      rejectWithdrawalAs(tx, actor(ctx), Number(input.id), input.reason, ctx.clock.now()),
    );
    return views.withdrawalWithApprovals(ctx.db, row, await nameOf(ctx, row.userId), ctx.operatorConsole.fourEyesUsdt);
  });

  route(c.consoleCertifications, (input, { db }) => views.certificationList(db, input.status));
  route(c.consoleCertification, (input, { db }) => views.certificationDetail(db, Number(input.id)));
  route(c.consoleApproveCertification, async (input, ctx) => {
    const row = await ctx.db.transaction((tx) =>
      approveCertificationAs(tx, actor(ctx), Number(input.id), ctx.clock.now()),
    );
    return views.certificationView(row, await nameOf(ctx, row.userId));
  });
  route(c.consoleRejectCertification, async (input, ctx) => {
    const row = await ctx.db.transaction((tx) =>
      rejectCertificationAs(tx, actor(ctx), Number(input.id), input.reason, ctx.clock.now()),
    );
    return views.certificationView(row, await nameOf(ctx, row.userId));
  });

  route(q.consoleQueue, (input, { db, clock, operatorConsole }) =>
    reviewQueue(db, input, clock.now(), operatorConsole.fourEyesUsdt),
  );
  route(q.consoleClaimItem, (input, ctx) =>
    ctx.db.transaction((tx) =>
      claimItem(tx, claimant(ctx), input.kind, Number(input.id), ctx.clock.now(), input.take_over === '1'),
    ),
  );
  route(q.consoleReleaseItem, (input, ctx) =>
    releaseItem(ctx.db, ctx.operator.id, input.kind, Number(input.id), ctx.clock.now()),
  );
  route(q.consoleClaimNext, (input, ctx) => claimNext(ctx.db, claimant(ctx), input.kind, ctx.clock.now()));

  route(c.consoleFindCustomers, (input, { db }) => views.findCustomers(db, input.query));
  route(c.consolePhoneDuplicates, async (_input, { db }) =>
    (await listedPhones(db)).map((row) => ({
      user_id: row.userId,
      username: row.username,
      kind: row.kind,
      phone: row.phone,
      stored_phone: row.storedPhone,
      holds: row.holds,
      found_at: row.foundAt.toISOString(),
    })),
  );
  route(c.consoleCustomer, (input, { db, operatorConsole, clock }) =>
    views.customerDetail(db, Number(input.id), operatorConsole.fourEyesUsdt, clock.now()),
  );
  route(c.consoleCustomerHistory, async (input, { db, operatorConsole, clock }) => {
    const userId = Number(input.id);
    await views.customerExists(db, userId);
    return views.customerHistory(db, userId, operatorConsole.fourEyesUsdt, clock.now());
  });

  route(c.consoleOperators, (_input, { db }) => listOperators(db));
  route(c.consoleAddOperator, async (input, ctx) => {
    const added = await ctx.db.transaction((tx) =>
      addOperator(tx, actor(ctx), input.name, input.role, ctx.twoFactorKey, ctx.clock.now()),
    );
    return { name: added.name, role: added.role, password: added.password, otpauth_uri: added.uri };
  });
  route(c.consoleDisableOperator, (input, ctx) =>
    ctx.db.transaction((tx) => disableOperator(tx, actor(ctx), input.name, ctx.clock.now())),
  );
  route(c.consoleAuditLog, (input, { db }) => searchAudit(db, input, input.cursor));
};
