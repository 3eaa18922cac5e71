// Push notifications of a customer's events: written to the outbox in the transaction
// that decides the event (a settlement, a fill, a review, a message), one row per subscribed browser
// of that customer, in the browser's language, unless the customer turned that kind off. The
// delivery job sends them (delivery/push.ts).
import Big from 'big.js';
import { sql } from 'drizzle-orm';
import { isTrue, rowsOf, type Executor } from '../db/connection.ts';
import { LOCALES, type Locale } from '../../api-contract/constants.ts';
import { noticeTexts as n, type NoticeKind } from '../../api-contract/notifications.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { withoutAntiPhishingLine } from '../../api-contract/anti-phishing-line.ts';
import { translator } from '../i18n.ts';
import { serverTexts } from '../../api-contract/server-texts.ts';
import { simulatedConstituents } from './prices.ts';
import { startWithin } from '../../api-contract/character-count.ts';

export type Notice =
  | {
      kind: 'option_settled';
      id: number;
      coin: string;
      outcome: 'win' | 'loss' | 'tie' | 'void';
      amount: string;
      profit: string;
      opened?: boolean;
      /** A practice order: the notification says so (its money is virtual). */
      practice?: boolean;
      /** Its start or end price came from the simulated feed: the text says so first. */
      simulated?: boolean;
    }
  | {
      kind: 'contract_filled';
      id: number;
      coin: string;
      side: 'buy' | 'sell';
      quantity: string;
      price: string;
      practice?: boolean;
      /** The fill's tick came from the simulated feed: the text says so first. */
      simulated?: boolean;
    }
  | {
      kind: 'recharge_reviewed' | 'withdraw_reviewed';
      id: number;
      approved: boolean;
      amount: string;
      asset: string;
      reason: string;
    }
  | { kind: 'certification_reviewed'; level: 'primary' | 'advanced'; approved: boolean; reason: string }
  /** `versions`: the message in other languages than English (its title and content), where it was written in them. */
  | {
      kind: 'station_message';
      id: number;
      title: string;
      content: string;
      versions?: Partial<Record<Locale, { title: string; content: string }>>;
    }
  | { kind: 'service_reply'; body: string }
  /** A price alert fired: its station message's words in every language (domain/price-alerts.ts wrote them once). */
  | { kind: 'price_alert'; id: number; message: number; texts: Record<Locale, { title: string; content: string }> };

/** What the service worker shows: the title, the text, the app's route a tap opens (a hash URL), and a tag (a newer
 * notice of the same thing replaces the older). */
export interface PushPayload {
  title: string;
  body: string;
  url: string;
  tag: string;
}

/** Push services take about 4 KB of payload: a station message's text is cut well before. */
const BODY_MAX = 240;
const TITLE_MAX = 100;
/** `text` within `max` code units: whole, or its first whole characters and '…' (startWithin: a cut inside an emoji
 * left half of it, which the outbox's jsonb refuses, and the write that queued the notice failed). */
const cut = (text: string, max: number) => (text.length > max ? `${startWithin(text, max - 1).trimEnd()}…` : text);
/** An amount as people read it: no padding zeros. */
const figure = (value: string) => new Big(value).toFixed();
const route = (path: string, query = '') => `#${path}${query}`;

/** The notification of `notice` in one language. */
export function noticeContent(notice: Notice, language: Locale): PushPayload {
  const t = translator(language);
  switch (notice.kind) {
    case 'option_settled': {
      // Void before it opened: no tick was recorded in time after the order was accepted.
      const body =
        notice.opened === false
          ? n.optionVoidAtStart
          : { win: n.optionWon, loss: n.optionLost, tie: n.optionTie, void: n.optionVoid }[notice.outcome];
      const amount = notice.outcome === 'win' ? figure(notice.profit) : figure(notice.amount);
      const settled = t(body, { 0: amount });
      return content(
        t(notice.practice ? n.practiceOptionSettledTitle : n.optionSettledTitle, { 0: notice.coin }),
        // An outcome decided by simulated prices says so first, as a contract fill's does; a refund (void) was
        // decided by no price.
        notice.simulated && notice.outcome !== 'void' ? t(serverTexts.simulatedPricesFirst, { 0: settled }) : settled,
        route(ROUTES.optionRecord, `?id=${notice.id}`),
        `option:${notice.id}`,
      );
    }
    case 'contract_filled': {
      const filled = t(notice.side === 'buy' ? n.contractBought : n.contractSold, {
        0: figure(notice.quantity),
        1: notice.coin,
        2: figure(notice.price),
      });
      return content(
        t(notice.practice ? n.practiceContractFilledTitle : n.contractFilledTitle),
        // First, so a notification cut to its first characters still says the price was simulated.
        notice.simulated ? t(serverTexts.simulatedPricesFirst, { 0: filled }) : filled,
        // A practice fill opens the practice account's orders (the page reads `account`).
        route(ROUTES.contractOrders, `?code=${notice.coin}${notice.practice ? '&account=practice' : ''}`),
        `contract:${notice.id}`,
      );
    }
    case 'recharge_reviewed':
    case 'withdraw_reviewed': {
      const recharge = notice.kind === 'recharge_reviewed';
      const amount = { 0: figure(notice.amount), 1: notice.asset };
      const title = recharge
        ? notice.approved
          ? n.rechargeCreditedTitle
          : n.rechargeRejectedTitle
        : notice.approved
          ? n.withdrawPaidTitle
          : n.withdrawRejectedTitle;
      const body = notice.approved
        ? t(recharge ? n.rechargeCredited : n.withdrawPaid, amount)
        : t(n.rejectedBecause, { ...amount, 2: notice.reason });
      const page = recharge ? ROUTES.rechargeDetails : ROUTES.withdrawDetails;
      return content(
        t(title),
        body,
        route(page, `?id=${notice.id}`),
        `${recharge ? 'recharge' : 'withdraw'}:${notice.id}`,
      );
    }
    case 'certification_reviewed':
      return content(
        t(notice.approved ? n.certificationApprovedTitle : n.certificationRejectedTitle),
        notice.approved ? t(n.certificationApproved) : notice.reason,
        route(notice.level === 'advanced' ? ROUTES.certificationAdvanced : ROUTES.certificationPrimary),
        `certification:${notice.level}`,
      );
    case 'station_message': {
      const said = notice.versions?.[language] ?? notice;
      // Without the anti-phishing code line: a notification shows on a locked screen, and passes a push service.
      return content(
        said.title,
        withoutAntiPhishingLine(said.content),
        route(ROUTES.messages, `?id=${notice.id}`),
        `message:${notice.id}`,
      );
    }
    case 'service_reply':
      return content(t(n.serviceReplyTitle), notice.body, route(ROUTES.serviceChat), 'service');
    case 'price_alert': {
      // A tap opens the station message that says the same.
      const said = notice.texts[language];
      return content(
        said.title,
        said.content,
        route(ROUTES.messages, `?id=${notice.message}`),
        `price-alert:${notice.id}`,
      );
    }
  }
}

const content = (title: string, body: string, url: string, tag: string): PushPayload => ({
  title: cut(title, TITLE_MAX),
  body: cut(body.replace(/\s+/g, ' ').trim(), BODY_MAX),
  url,
  tag,
});

/** A subscribed browser of a customer who has not turned `kind` off. */
interface Recipient {
  subscription: number;
  user_id: number;
  language: string;
}

/** Queues `notice` to every browser `userId` subscribed, in `tx` (the transaction that decided it). */
export function queueNotice(tx: Executor, userId: number, notice: Notice, now: Date): Promise<void> {
  return queueNotices(tx, [{ userId, notice }], now);
}

/** Queues several notices at once: one read of the recipients, one insert. */
export async function queueNotices(
  tx: Executor,
  notices: readonly { userId: number; notice: Notice }[],
  now: Date,
): Promise<void> {
  const kinds = [...new Set(notices.map(({ notice }) => notice.kind))];
  const users = [...new Set(notices.map(({ userId }) => userId))];
  if (!users.length) return;
  const recipients = rowsOf<Recipient & { kind: NoticeKind }>(
    await tx.execute(sql`
      select s.id as subscription, s.user_id, s.language, k.kind
      from push_subscriptions s
      cross join unnest(${`{${kinds.join(',')}}`}::text[]) as k(kind)
      left join notification_settings ns on ns.user_id = s.user_id
      where s.user_id = any(${`{${users.join(',')}}`}::int[]) and not (k.kind = any(coalesce(ns.off, '{}')))`),
  );
  if (!recipients.length) return;
  const rows = notices.flatMap(({ userId, notice }) =>
    recipients
      .filter((recipient) => Number(recipient.user_id) === userId && recipient.kind === notice.kind)
      .map((recipient) => ({ recipient, notice })),
  );
  await insertRows(tx, rows, now);
}

/**
 * The notices of settled options, set-based: settlement runs in batches of hundreds, and most
 * customers subscribed no browser, so one read joins the batch's orders to the subscriptions.
 */
export async function queueSettledOptionNotices(tx: Executor, orderIds: string, now: Date): Promise<void> {
  const found = rowsOf<
    Recipient & {
      id: number;
      coin: string;
      outcome: Extract<Notice, { kind: 'option_settled' }>['outcome'];
      amount: string;
      profit: string;
      opened: boolean;
      practice: boolean;
      simulated: boolean | string;
    }
  >(
    await tx.execute(sql`
      select s.id as subscription, s.user_id, s.language, o.id, o.coin, o.outcome, o.amount::text as amount, o.profit::text as profit,
        o.start_price is not null as opened, o.practice,
        o.start_price is not null and (${simulatedConstituents(sql`o.start_constituents`)}
          or o.end_price is not null and ${simulatedConstituents(sql`o.end_constituents`)}) as simulated
      from option_orders o
      join push_subscriptions s on s.user_id = o.user_id
      left join notification_settings ns on ns.user_id = o.user_id
      where o.id = any(${orderIds}::int[]) and not ('option_settled' = any(coalesce(ns.off, '{}')))
      order by o.id, s.id`),
  );
  const rows = found.map((row) => ({
    recipient: row,
    notice: {
      kind: 'option_settled',
      id: Number(row.id),
      coin: row.coin,
      outcome: row.outcome,
      amount: row.amount,
      profit: row.profit,
      opened: isTrue(row.opened),
      practice: isTrue(row.practice),
      simulated: isTrue(row.simulated),
    } satisfies Notice,
  }));
  await insertRows(tx, rows, now);
}

/** One statement and one parameter however many rows (a settlement batch may queue hundreds). */
async function insertRows(
  tx: Executor,
  rows: readonly { recipient: Recipient; notice: Notice }[],
  now: Date,
): Promise<void> {
  if (!rows.length) return;
  const records = rows.map(({ recipient, notice }) => {
    const language = (LOCALES as readonly string[]).includes(recipient.language)
      ? (recipient.language as Locale)
      : 'en';
    const payload = noticeContent(notice, language);
    return {
      target: String(recipient.subscription),
      kind: notice.kind,
      user_id: Number(recipient.user_id),
      language,
      subject: payload.title,
      body: payload.body,
      payload,
    };
  });
  const at = now.toISOString();
  await tx.execute(sql`
    insert into outbox (channel, target, kind, user_id, language, subject, body, payload, next_attempt_at, created_at)
    select 'push', r.target, r.kind, r.user_id, r.language, r.subject, r.body, r.payload, ${at}::timestamptz, ${at}::timestamptz
    from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as r(target text, kind text, user_id int, language text, subject text, body text, payload jsonb)`);
}
