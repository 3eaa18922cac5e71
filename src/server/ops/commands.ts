// The operator's commands: each takes the database and its arguments and answers the text to
// print. They run in the CLI process (PostgreSQL, or an embedded database no server holds) or,
// forwarded over the operator socket, inside the server that holds the embedded database.
// Operators review money movements and certifications; no command sets or changes a trade's outcome.
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import Big from 'big.js';
import { eq } from 'drizzle-orm';
import { contentVersions } from '../domain/content-languages.ts';
import { outboxSummary } from '../domain/delivery.ts';
import { bodyForOperator } from '../delivery/code-message.ts';
import { startWithin } from '../../api-contract/character-count.ts';
import { publishLadder, publishedLadders } from '../domain/liquidity.ts';
import { DEFAULT_EARN_TIMEZONE } from '../../api-contract/earn-days.ts';
import { isCalendarDay } from '../../api-contract/calendar.ts';
import { findUserByLogin } from '../domain/accounts.ts';
import { productionSince } from '../domain/config-entries.ts';
import { balanceOf, post } from '../domain/ledger.ts';
import { liquidityRates, lockupProducts } from '../db/schema.ts';
import { rechargeQueue } from '../domain/recharge.ts';
import { withdrawalQueue } from '../domain/withdraw.ts';
import { certificationQueue } from '../domain/certification.ts';
import { COMMAND_LINE, appendAudit } from '../domain/audit-log.ts';
import {
  DEFAULT_FOUR_EYES_USDT,
  approveCertificationAs,
  approveRechargeAs,
  approveWithdrawalAs,
  rejectCertificationAs,
  rejectRechargeAs,
  rejectWithdrawalAs,
} from '../domain/operator-reviews.ts';
import { Refusal } from '../domain/refusal.ts';
import {
  changeContractPairAs,
  changeLockupProduct,
  changeOptionProductAs,
  contractPairList,
  contractPairTerms,
  lockupProductList,
  optionProductList,
  optionProductTerms,
} from '../domain/settings.ts';
import { translator } from '../i18n.ts';
import { AMOUNT } from '../../api-contract/markets.ts';
import { BackupError, backupEmbedded, embeddedClient, postgresBackupHelp } from './backup.ts';
import { UPLOADS_PATH, anyUpload } from '../domain/uploads.ts';
import {
  UsageError,
  idOf,
  keyValues,
  oneOf,
  plain,
  reasonOf,
  table,
  customerLabel,
  customerNames,
  type Command,
  type OperatorContext,
} from './command-kit.ts';
import { TASKS_COMMANDS, TASKS_USAGE } from './tasks-commands.ts';
import { SHARE_USAGE, shareCommands } from './share-commands.ts';
import { BLINDBOX_USAGE, blindBoxCommands } from './blindbox-commands.ts';
import { ACTIVITIES_USAGE, activitiesCommands } from './activities-commands.ts';
import { OPERATOR_USAGE, operatorCommands } from './operator-commands.ts';
import { CONTENT_USAGE, contentCommands } from './content-commands.ts';
import { RECONCILE_USAGE, reconcileCommands } from './reconcile-commands.ts';
import { PHONES_USAGE, phoneCommands } from './phone-commands.ts';
import { LIABILITIES_USAGE, liabilitiesCommands } from './liabilities-commands.ts';
import { PICTURES_USAGE, pictureCommands } from './picture-commands.ts';

export { table, type OperatorContext } from './command-kit.ts';

export const USAGE = `Usage: npm run ops -- <command>
  recharges [pending|success|rejected|all]      recharges to review (default: pending)
  recharge approve <id> [height=<block>] [remark="<text>"]
                                                credit it (balance, cumulative recharge, VIP level; above
                                                FOUR_EYES_USDT: one of two approvals, the command being "ops")
  recharge reject <id> "<reason>"               the customer sees the reason
  withdrawals [review|success|fail|all]         withdrawals to review (default: review)
  withdrawal approve <id> [hash=<payout tx>]    paid out: the frozen amount + fee leaves (above FOUR_EYES_USDT:
                                                one of two approvals, the command being the operator "ops")
  withdrawal reject <id> "<reason>"             the frozen amount + fee returns; the customer sees the reason
  certifications [review|verified|rejected|all] certifications to review (default: review)
  certification approve <id>
  certification reject <id> "<reason>"
  credit <username> <asset> <amount>            development only: a test balance through the ledger
  products                                      list option products
  product <id> [yield=0.85] [min=1] [active=true|false]
                                                edit one option product
  pairs                                         list contract pairs (coin/USDT) and their rules
  pair <coin> [tick=2] [step=5] [min=5] [fee=0.001] [band=0.1] [active=true|false]
                                                edit a pair: price decimals, quantity decimals, minimum
                                                notional (USDT), fee rate, fat-finger band (0.1 = 10 %)
  ladders                                       liquidity ladders published per interest day
  ladder <YYYY-MM-DD> <up_to:rate,…,*:rate>     publish a later day's ladder, e.g. 1000:0.06,10000:0.04,*:0.025
                                                (annual rates; the first 1,000 USDT at 6 %, the part to 10,000 at 4 %…)
  lockups                                       lock-up products
  lockup <id> [rate=0.001] [days=30] [min=100] [max=50000] [quota=none|amount] [active=true|false]
                                                edit one: daily rate, period (1–3650 days), limits per
                                                subscription, quota (orders already placed keep their terms)
  outbox [n]                                    queued/sent/failed counts and the last n messages (default 20)
  backup <file>                                 a copy of the embedded database (also while the server runs)
  restore <file>                                replace the embedded database with a backup (server stopped;
                                                the current one is kept as data/pglite.before-restore-<time>)
  picture <id|/api/uploads/id> <file>           write an uploaded picture (a certification document, a receipt)
                                                to a new file, to look at it: private ones are served to their owner only
${PICTURES_USAGE}
${TASKS_USAGE}
${SHARE_USAGE}
${BLINDBOX_USAGE}
${ACTIVITIES_USAGE}
${CONTENT_USAGE}
${OPERATOR_USAGE}
${RECONCILE_USAGE}
${LIABILITIES_USAGE}
${PHONES_USAGE}`;

/** Runs one command; a mistake answers as `{ ok: false }` with the reason to print. */
export async function runOperatorCommand(
  ctx: OperatorContext,
  argv: string[],
): Promise<{ ok: boolean; output: string }> {
  const [name, ...args] = argv;
  const command = isOperatorCommand(name) ? commands[name!] : undefined;
  if (!command) return { ok: !name, output: USAGE };
  try {
    return { ok: true, output: await command(ctx, args) };
  } catch (error) {
    // A refused rule reads as it would to a customer in English (an operator's own rules are English already).
    if (error instanceof Refusal) return { ok: false, output: translator('en')(error.textId, error.values) };
    if (error instanceof UsageError || error instanceof BackupError) return { ok: false, output: error.message };
    throw error;
  }
}

export const isOperatorCommand = (name: string | undefined): boolean =>
  name !== undefined && Object.hasOwn(commands, name);

// Each area's commands file adds its own entries with one spread line here.
const commands: Record<string, Command> = {
  ...TASKS_COMMANDS,
  ...shareCommands,
  ...blindBoxCommands,
  ...activitiesCommands,
  ...operatorCommands,
  ...contentCommands,
  ...reconcileCommands,
  ...liabilitiesCommands,
  ...phoneCommands,
  ...pictureCommands,
  async backup({ db }, [file, ...extra]) {
    if (!file || extra.length) throw new UsageError('Usage: npm run ops -- backup <file>');
    if (!embeddedClient(db)) throw new BackupError(postgresBackupHelp(file));
    return backupEmbedded(db, file);
  },
  // Reached only on PostgreSQL or through a running server's socket: ops/command-line.ts restores a free folder.
  async restore({ db }, [file = 'coinvest.dump']) {
    throw new BackupError(
      embeddedClient(db) ? 'The server is using the database: stop it first, then restore.' : postgresBackupHelp(file),
    );
  },
  async recharges({ db }, [status = 'pending']) {
    const rows = await rechargeQueue(db, status === 'all' ? 'all' : oneOf(status, ['pending', 'success', 'rejected']));
    return table(
      rows.map(({ order, username, closed }) => ({
        id: order.id,
        order: order.orderNo,
        user: customerLabel({ username, closed: Boolean(closed) }),
        channel: order.channelName,
        paid: `${plain(order.amount)} ${order.currency}`,
        credit: `${plain(order.actualAmount)} ${order.asset}`,
        evidence: order.hash ?? order.proof,
        status: order.status,
        at: order.createdAt.toISOString(),
      })),
      `No ${status === 'all' ? '' : `${status} `}recharges.`,
    );
  },

  async recharge({ db, now, fourEyesUsdt = DEFAULT_FOUR_EYES_USDT }, [action, id, ...rest]) {
    const order = idOf(id);
    if (action === 'approve') {
      const options = keyValues(rest, ['height', 'remark']);
      // Four eyes: above FOUR_EYES_USDT the command is one approver ('ops'); a console reviewer is the other.
      const details = { blockHeight: options.height, remark: options.remark };
      const { row, approvals, needed } = await db.transaction((tx) =>
        approveRechargeAs(tx, COMMAND_LINE, order, details, now, fourEyesUsdt),
      );
      if (approvals.length < needed)
        return `Recharge ${row.id} (${row.orderNo}): approval ${approvals.length} of ${needed} recorded (${approvals.join(', ')}); another reviewer must approve it too.`;
      return `Recharge ${row.id} (${row.orderNo}) approved: ${plain(row.actualAmount)} ${row.asset} credited to user ${row.userId}.`;
    }
    if (action === 'reject') {
      const row = await db.transaction((tx) => rejectRechargeAs(tx, COMMAND_LINE, order, reasonOf(rest), now));
      return `Recharge ${row.id} (${row.orderNo}) rejected: "${row.reason}".`;
    }
    throw new UsageError(
      'Usage: recharge approve <id> [height=<block>] [remark="<text>"] | recharge reject <id> "<reason>"',
    );
  },

  async withdrawals({ db }, [status = 'review']) {
    const rows = await withdrawalQueue(db, status === 'all' ? 'all' : oneOf(status, ['review', 'success', 'fail']));
    return table(
      rows.map(({ order, username, closed }) => ({
        id: order.id,
        order: order.orderNo,
        user: customerLabel({ username, closed: Boolean(closed) }),
        pay: `${plain(order.actualAmount)} ${order.asset}${order.fiatAmount ? ` (${order.fiatAmount} ${order.fiatCurrency})` : ''}`,
        fee: plain(order.fee),
        to: `${order.payeeName} · ${order.payeeNetwork} · ${order.payeeAccount}`,
        status: order.status,
        at: order.createdAt.toISOString(),
      })),
      `No ${status === 'all' ? '' : `${status} `}withdrawals.`,
    );
  },

  async withdrawal({ db, now, fourEyesUsdt = DEFAULT_FOUR_EYES_USDT }, [action, id, ...rest]) {
    const order = idOf(id);
    if (action === 'approve') {
      const options = keyValues(rest, ['hash']);
      // Four eyes: above FOUR_EYES_USDT the command is one approver ('ops'); a console reviewer is the other.
      const { row, approvals, needed } = await db.transaction((tx) =>
        approveWithdrawalAs(tx, COMMAND_LINE, order, { hash: options.hash }, now, fourEyesUsdt),
      );
      if (approvals.length < needed)
        return `Withdrawal ${row.id} (${row.orderNo}): approval ${approvals.length} of ${needed} recorded (${approvals.join(', ')}); another reviewer must approve it too.`;
      return `Withdrawal ${row.id} (${row.orderNo}) approved: ${plain(row.actualAmount)} ${row.asset} paid to ${row.payeeName}.`;
    }
    if (action === 'reject') {
      const row = await db.transaction((tx) => rejectWithdrawalAs(tx, COMMAND_LINE, order, reasonOf(rest), now));
      return `Withdrawal ${row.id} (${row.orderNo}) rejected: "${row.reason}". ${plain(row.total)} ${row.asset} returned to user ${row.userId}.`;
    }
    throw new UsageError('Usage: withdrawal approve <id> [hash=<payout tx>] | withdrawal reject <id> "<reason>"');
  },

  async certifications({ db }, [status = 'review']) {
    const rows = await certificationQueue(
      db,
      status === 'all' ? 'all' : oneOf(status, ['review', 'verified', 'rejected']),
    );
    const names = await customerNames(
      db,
      rows.map((row) => row.userId),
    );
    return table(
      rows.map((row) => ({
        id: row.id,
        user: customerLabel(names.get(row.userId) ?? { username: `user ${row.userId}`, closed: false }),
        level: row.level,
        document: row.docType ?? '',
        name: row.name,
        number: row.number,
        images: Object.entries(row.images)
          .map(([side, url]) => `${side}: ${url}`)
          .join(' '),
        status: row.status,
        at: row.createdAt.toISOString(),
      })),
      `No ${status === 'all' ? '' : `${status} `}certifications.`,
    );
  },

  async certification({ db, now }, [action, id, ...rest]) {
    const submission = idOf(id);
    if (action === 'approve') {
      const row = await db.transaction((tx) => approveCertificationAs(tx, COMMAND_LINE, submission, now));
      return `Certification ${row.id} (${row.level}, user ${row.userId}) verified.`;
    }
    if (action === 'reject') {
      const row = await db.transaction((tx) =>
        rejectCertificationAs(tx, COMMAND_LINE, submission, reasonOf(rest), now),
      );
      return `Certification ${row.id} (${row.level}, user ${row.userId}) rejected: "${row.reason}".`;
    }
    throw new UsageError('Usage: certification approve <id> | certification reject <id> "<reason>"');
  },

  async credit({ db, now, production }, [login, asset, amount, ...extra]) {
    if (production)
      throw new UsageError('Test balances are for development only: this server runs in production mode.');
    // The database, not the shell, says what it is: a production database stays one with its server stopped.
    const since = await productionSince(db);
    if (since)
      throw new UsageError(
        `Test balances are for development only: a production server has run on this database (since ${since}).`,
      );
    if (
      !login ||
      !asset ||
      !amount ||
      extra.length ||
      !/^[A-Z0-9]{2,10}$/.test(asset) ||
      !AMOUNT.test(amount) ||
      new Big(amount).lte(0)
    ) {
      throw new UsageError('Usage: credit <username> <asset> <amount>, e.g. credit demo USDT 500');
    }
    const user = await findUserByLogin(db, login);
    if (!user) throw new UsageError(`No user "${login}".`);
    // Audited like every command that moves money: the balance before and after, in the credit's transaction.
    await db.transaction(async (tx) => {
      const before = await balanceOf(tx, user.id, asset);
      await post(tx, { userId: user.id, asset, amount, kind: 'test_credit', reference: `credit:${randomUUID()}` }, now);
      const after = await balanceOf(tx, user.id, asset);
      const change = { before: { asset, ...before }, after: { asset, amount, ...after } };
      await appendAudit(tx, COMMAND_LINE, 'balance.test-credit', `user:${user.id}`, change, now);
    });
    return `Credited ${amount} ${asset} to ${user.username} (user ${user.id}) as a test balance.`;
  },

  async products({ db }) {
    const rows = await optionProductList(db);
    return table(rows.map(optionProductTerms), 'No products.');
  },

  async product({ db, now }, [id, ...changes]) {
    const row = await db.transaction((tx) => changeOptionProductAs(tx, COMMAND_LINE, idOf(id), changes, now));
    return `Product ${row.id} (${row.coin}, ${row.minutes} min): yield ${row.yieldRate}, minimum ${row.minAmount}, ${row.active ? 'active' : 'inactive'}. Orders already placed keep their terms.`;
  },

  async pairs({ db }) {
    const rows = await contractPairList(db);
    return table(
      rows.map((row) => {
        const { coin, ...terms } = contractPairTerms(row);
        return { pair: `${coin}/USDT`, ...terms };
      }),
      'No pairs.',
    );
  },

  // Trading rules only: no command sets a fill price or an order's status (fills come from recorded ticks).
  async pair({ db, now }, [coin = '', ...changes]) {
    const row = await db.transaction((tx) => changeContractPairAs(tx, COMMAND_LINE, coin, changes, now));
    return `Pair ${row.coin}/USDT: tick ${row.priceDecimals} decimals, step ${row.quantityDecimals} decimals, minimum ${row.minNotional} USDT, fee ${row.feeRate}, band ${row.priceBand}, ${row.active ? 'active' : 'inactive'}. Orders already placed keep their price, quantity and fee rate.`;
  },

  async ladders({ db }) {
    const rows = await publishedLadders(db);
    return table(
      rows.map((row) => ({
        day: row.day,
        ladder: row.ladder.map((tier) => `${tier.up_to ?? '*'}:${tier.rate}`).join(','),
        published: row.publishedAt.toISOString(),
      })),
      'No ladder published.',
    );
  },

  // Rates only, for a day to come: no command touches a customer's balance, interest or order.
  async ladder({ db, now, earnTimeZone }, [day = '', spec = '', ...extra]) {
    const tiers = spec.split(',').map((part) => part.split(':'));
    const valid =
      isCalendarDay(day) &&
      !extra.length &&
      tiers.length > 0 &&
      tiers.every(
        ([upTo = '', rate = ''], i) =>
          (i === tiers.length - 1 ? upTo === '*' : AMOUNT.test(upTo) && new Big(upTo).gt(0)) &&
          /^0(\.\d{1,6})?$/.test(rate),
      ) &&
      // Limits compared as decimals: two 18-digit limits a float reads as one number are still two, in order.
      tiers.every(([upTo], i) => i === 0 || upTo === '*' || new Big(upTo!).gt(tiers[i - 1]![0]!));
    if (!valid)
      throw new UsageError(
        'Usage: ladder <YYYY-MM-DD> <up_to:rate,…,*:rate>, e.g. ladder 2026-11-24 1000:0.06,10000:0.04,*:0.025 (rising limits, the last one *, annual rates below 1).',
      );
    const ladder = tiers.map(([upTo, rate]) => ({ up_to: upTo === '*' ? null : upTo!, rate: rate! }));
    await db.transaction(async (tx) => {
      const [before] = await tx.select().from(liquidityRates).where(eq(liquidityRates.day, day));
      await publishLadder(tx, day, ladder, now, earnTimeZone ?? DEFAULT_EARN_TIMEZONE);
      const change = { before: before ? { ladder: before.ladder } : null, after: { ladder } };
      await appendAudit(tx, COMMAND_LINE, 'ladder.publish', `ladder:${day}`, change, now);
    });
    return `Ladder of ${day} published: ${spec}.`;
  },

  async lockups({ db }) {
    const rows = await lockupProductList(db);
    return table(
      rows.map((row) => ({
        id: row.id,
        name: row.name,
        days: row.days,
        rate: row.dailyRate,
        min: row.minAmount,
        max: row.maxAmount,
        quota: row.quota ?? 'none',
        sold: row.sold,
        active: row.active,
      })),
      'No products.',
    );
  },

  async lockup({ db, now }, [id, ...changes]) {
    const { row, was } = await db.transaction(async (tx) => {
      const product = idOf(id);
      const [before] = await tx.select().from(lockupProducts).where(eq(lockupProducts.id, product));
      const after = await changeLockupProduct(tx, product, changes);
      await appendAudit(tx, COMMAND_LINE, 'lockup.change', `lockup:${after.id}`, { before, after }, now);
      return { row: after, was: before?.days ?? after.days };
    });
    const terms = `Lock-up ${row.id} (${row.name}, ${row.days} days): ${row.dailyRate} a day, ${row.minAmount}–${row.maxAmount} USDT, quota ${row.quota ?? 'none'}, ${row.active ? 'active' : 'inactive'}. Orders already placed keep their terms.`;
    if (was === row.days) return terms;
    // Customers read the product by its name: one that states the old period ("Lock-up 7 days") now misleads them.
    const stating = new RegExp(`(?<!\\d)${was}(?!\\d)`);
    const stale = (await contentVersions(db, 'lockup', String(row.id)))
      .filter((version) => version.written && stating.test(version.title))
      .map((version) => version.lang);
    return stale.length
      ? `${terms}\nIts name still says ${was} in ${stale.join(', ')}: write them again on the console's Content page (Lock-up products).`
      : terms;
  },

  async picture({ db }, [name, file, ...extra]) {
    if (!name || !file || extra.length)
      throw new UsageError('Usage: picture <id|/api/uploads/<id>> <file>, e.g. picture /api/uploads/Xy… front.jpg');
    const upload = await anyUpload(db, name.startsWith(UPLOADS_PATH) ? name.slice(UPLOADS_PATH.length) : name);
    if (!upload) throw new UsageError(`No picture "${name}".`);
    const names = await customerNames(db, [upload.userId]);
    // Identity documents: readable by the operator's account only, and never over another file.
    try {
      writeFileSync(file, upload.bytes, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'EEXIST') throw new UsageError(`${file} already exists: choose a new file name.`);
      if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR')
        throw new UsageError(`Cannot write ${file} (${code}).`);
      throw error;
    }
    const size =
      upload.bytes.length < 1024 ? `${upload.bytes.length} bytes` : `${(upload.bytes.length / 1024).toFixed(1)} KB`;
    return `Wrote picture ${upload.id} (${upload.mime}, ${size}) of ${customerLabel(names.get(upload.userId) ?? { username: `user ${upload.userId}`, closed: false })} to ${file}; it is ${upload.isPublic ? "an avatar's copy" : 'private'}.`;
  },

  async outbox({ db }, [count]) {
    const { byStatus, last } = await outboxSummary(db, Number(count ?? 20) || 20);
    const messages = table(
      last.map((row) => ({
        at: row.createdAt.toISOString(),
        channel: row.channel,
        target: row.target,
        kind: row.kind,
        status: row.status,
        attempts: row.attempts,
        error: row.lastError ?? '',
        message: startWithin(bodyForOperator(row).replace(/\s+/g, ' '), 100),
      })),
      'The outbox is empty.',
    );
    return `queued ${byStatus.queued}, sent ${byStatus.sent}, failed ${byStatus.failed}\n${messages}`;
  },
};
