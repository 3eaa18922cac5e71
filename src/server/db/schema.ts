// One schema for PGlite and PostgreSQL; migrations are generated from it by drizzle-kit.
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });
const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull().unique(),
    phone: text('phone').unique(),
    email: text('email').unique(),
    passwordHash: text('password_hash').notNull(),
    paypassHash: text('paypass_hash'),
    nickname: text('nickname').notNull().default(''),
    avatar: text('avatar').notNull().default(''),
    currency: text('currency').notNull().default('THB'),
    inviteCode: text('invite_code').notNull().unique(),
    invitedBy: integer('invited_by'),
    level: integer('level').notNull().default(0),
    rechargeTotal: numeric('recharge_total', { precision: 36, scale: 8 }).notNull().default('0'),
    verification: text('verification').notNull().default('none'),
    advancedVerification: text('advanced_verification').notNull().default('none'),
    /** The customer's own short phrase, shown in every e-mail and security notice we send them; null until set. */
    antiPhishingCode: text('anti_phishing_code'),
    createdAt: at('created_at').notNull().defaultNow(),
    /** When the customer closed the account (domain/closure.ts); null while it is open. A closed account signs in no
     * more: its username, phone and e-mail are moved to closed_accounts. */
    closedAt: at('closed_at'),
    /** The customer's own limit on a session left unused, in minutes (Settings: 15 minutes, 1 hour, 1 day, 7 days or
     * 30 days, the default); the server's SESSION_IDLE_DAYS still applies when shorter (domain/session-idle.ts). */
    sessionIdleMinutes: integer('session_idle_minutes').notNull().default(43_200),
  },
  (t) => [
    check('users_recharge_total_nonnegative', sql`${t.rechargeTotal} >= 0`),
    // The inviter's list of friends (domain/referrals.ts), newest first.
    index('users_invited_by_idx').on(t.invitedBy, t.createdAt, t.id),
    check('users_session_idle_minutes_choice', sql`${t.sessionIdleMinutes} in (15, 60, 1440, 10080, 43200)`),
    // One username whatever its letter case or compatibility form (domain/accounts.ts usernameKey). Its migration
    // creates it only on a database with no two such names (db/decisions/0009-usernames-ignore-case.md).
    uniqueIndex('users_username_key_idx').on(sql`lower(normalize(${t.username}, NFKC))`),
  ],
);

/** Session tokens are stored as SHA-256 hashes; revoking sets revoked_at. */
export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: at('created_at').notNull().defaultNow(),
    revokedAt: at('revoked_at'),
    /** The signing-in request's User-Agent, first 400 characters. */
    userAgent: text('user_agent').notNull().default(''),
    /** The address the session was signed in from; only ever shown masked. */
    ip: text('ip').notNull().default(''),
    /** Browser and system read from the user agent ('Chrome, Android'): a label never seen on the account is a new
     * device. */
    device: text('device').notNull().default(''),
    /** Moved at most every few minutes (domain/sessions.ts), not on every request. */
    lastSeenAt: at('last_seen_at').notNull().defaultNow(),
    /** The nonce of the remembered-device token given with this session (domain/remembered-devices.ts), if one was. */
    deviceNonce: text('device_nonce'),
    /** When the customer ended this session from another: the device given `device_nonce` asks for a code again. */
    deviceForgottenAt: at('device_forgotten_at'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: serial('id').primaryKey(),
    target: text('target').notNull(),
    codeHash: text('code_hash').notNull(),
    expiresAt: at('expires_at').notNull(),
    failedTries: integer('failed_tries').notNull().default(0),
    consumedAt: at('consumed_at'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('verification_codes_target_idx').on(t.target, t.createdAt)],
);

/**
 * Every message that leaves the server (a code by e-mail or SMS, a push notification) is a row here,
 * written in the transaction that decides it, and sent by the delivery job (domain/delivery.ts): a
 * process claims due rows with FOR UPDATE SKIP LOCKED and holds them until `claimed_until`, so any
 * number of processes send each message once and a claim lost with its process is taken up again.
 * `status`: queued → sent, or failed after the last try. The development transport logs the message
 * and marks it sent, so the operator command and the tests read codes from here.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: serial('id').primaryKey(),
    /** 'email' | 'sms' | 'push' */
    channel: text('channel').notNull(),
    /** An e-mail address or a phone number; a push subscription's id for push. */
    target: text('target').notNull(),
    /** What it is about: 'code', or a notice kind (api-contract/notifications.ts). */
    kind: text('kind').notNull().default('code'),
    userId: integer('user_id').references(() => users.id),
    /** The recipient's language (one of the six), for the texts made when it is sent. */
    language: text('language').notNull().default('en'),
    subject: text('subject').notNull().default(''),
    /** Plain text (e-mail and SMS). */
    body: text('body').notNull(),
    html: text('html'),
    /** A push notification's content (title, body, the page a tap opens). */
    payload: jsonb('payload'),
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: at('next_attempt_at').notNull().defaultNow(),
    claimedUntil: at('claimed_until'),
    lastError: text('last_error'),
    sentAt: at('sent_at'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('outbox_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'queued'`),
    index('outbox_target_idx').on(t.target, t.id),
    check('outbox_status_known', sql`${t.status} in ('queued', 'sent', 'failed')`),
  ],
);

/**
 * Windowed counters (domain/attempts.ts), shared by every server process. `key` is a SHA-256 digest
 * of what is counted, so no input is too long for it and no typed name is kept. `expires_at` is when
 * the row stops mattering (the cleanup job deletes it); deliberately not indexed, so counting stays a
 * HOT update and the hourly cleanup scans a small table.
 */
const windowedCounters = (name: string) =>
  pgTable(name, {
    key: text('key').primaryKey(),
    windowStart: at('window_start').notNull(),
    count: integer('count').notNull(),
    /** The latest count (the account-wide login delay runs from it). */
    lastAt: at('last_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull().defaultNow(),
  });
/** Login guesses, wrong passwords and codes sent. */
export const attemptCounters = windowedCounters('attempt_counters');
/** Requests per minute of an address or an account (PostgreSQL only: on PGlite one process counts in memory). */
export const requestCounters = windowedCounters('request_counters');

/** A write carrying an Idempotency-Key is applied once; its answer is replayed. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    key: text('key').primaryKey(),
    fingerprint: text('fingerprint').notNull(),
    response: jsonb('response'),
    createdAt: at('created_at').notNull().defaultNow(),
    /** The customer's session (sessions.id) that sent the write when the write ended that very session (closing the
     * account, a password change, a freeze, a log-out): set with the stored answer. Only that session's token, ended,
     * may still receive this answer (domain/idempotency.ts, replayToEndedSession); null for every other write. */
    endedSessionId: integer('ended_session_id'),
  },
  // The retention job deletes the oldest keys in batches by their age (jobs/idempotency-retention.ts).
  (t) => [index('idempotency_keys_created_at_idx').on(t.createdAt)],
);

export const uploads = pgTable(
  'uploads',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    mime: text('mime').notNull(),
    bytes: bytea('bytes').notNull(),
    /** An avatar's own copy, made when it is set (never a document or a receipt). Every picture, this one too, is
     * served only to its owner and the console's reviewers. */
    isPublic: boolean('public').notNull().default(false),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  // An account's pictures, counted at each upload against its bounds (domain/uploads.ts).
  (t) => [index('uploads_user_idx').on(t.userId, t.createdAt)],
);

export const configEntries = pgTable(
  'config_entries',
  {
    act: text('act').notNull(),
    key: text('key').notNull(),
    value: text('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.act, t.key] })],
);

export const slides = pgTable('slides', {
  id: serial('id').primaryKey(),
  position: text('position').notNull(),
  title: text('title').notNull(),
  image: text('image').notNull(),
  link: text('link').notNull().default(''),
  sort: integer('sort').notNull().default(0),
  active: boolean('active').notNull().default(true),
});

// ---- Markets, ledger and options -------------------------------------------------------------

/** Listed coins (the coins customers browse and trade) and the simulator's starting point for each. */
export const coins = pgTable('coins', {
  code: text('code').primaryKey(),
  name: text('name').notNull(),
  sort: integer('sort').notNull().default(0),
  active: boolean('active').notNull().default(true),
  /** Decimals shown for this coin's price. */
  priceDecimals: integer('price_decimals').notNull().default(2),
  startPrice: numeric('start_price', { precision: 36, scale: 12 }).notNull(),
  /** Annualised volatility of the simulated feed (0.6 = 60 %). */
  volatility: numeric('volatility', { precision: 8, scale: 4 }).notNull(),
  /**
   * The market index: this coin's symbol on an exchange where it differs from that exchange's usual
   * spelling (exchange name → symbol; "" where the exchange does not list the coin).
   */
  exchangeSymbols: jsonb('exchange_symbols').$type<Record<string, string>>().notNull().default({}),
});

/** One exchange's price in an index tick, as recorded with it (the exchange's own time, ISO). */
export interface Constituent {
  exchange: string;
  price: string;
  at: string;
  /** The exchange's id of the trade; absent in ticks recorded before it was kept. */
  tradeId?: string;
}

/** Every price used for settlement, as the feed recorded it. */
export const priceTicks = pgTable(
  'price_ticks',
  {
    coin: text('coin').notNull(),
    at: at('at').notNull(),
    price: numeric('price', { precision: 36, scale: 12 }).notNull(),
    /** From the market index: the exchanges' prices it was made of (null for the simulator). */
    constituents: jsonb('constituents').$type<Constituent[]>(),
  },
  // By time: processes that do not run the feed read the ticks recorded since their last one.
  (t) => [primaryKey({ columns: [t.coin, t.at] }), index('price_ticks_at_idx').on(t.at)],
);

/**
 * Coins the market index has halted (fewer than two fresh exchange prices), written by the feed's
 * holder with each step: while a row exists no order may use the coin's price (market/README.md,
 * "Prices from the market"). Empty under the simulator.
 */
export const marketHalts = pgTable('market_halts', {
  coin: text('coin').primaryKey(),
  since: at('since').notNull(),
});

/** Work exactly one server process does at a time (the price feed): held while renewed. */
export const leases = pgTable('leases', {
  name: text('name').primaryKey(),
  holder: text('holder').notNull(),
  expiresAt: at('expires_at').notNull(),
});

/** One-minute candles; longer periods are aggregated on read. */
export const candles = pgTable(
  'candles_1m',
  {
    coin: text('coin').notNull(),
    minute: at('minute').notNull(),
    open: numeric('open', { precision: 36, scale: 12 }).notNull(),
    high: numeric('high', { precision: 36, scale: 12 }).notNull(),
    low: numeric('low', { precision: 36, scale: 12 }).notNull(),
    close: numeric('close', { precision: 36, scale: 12 }).notNull(),
    volume: numeric('volume', { precision: 36, scale: 8 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.coin, t.minute] })],
);

/** Per user and asset: what can be spent and what is frozen. Never below zero. */
export const balances = pgTable(
  'balances',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    asset: text('asset').notNull(),
    available: numeric('available', { precision: 36, scale: 8 }).notNull().default('0'),
    frozen: numeric('frozen', { precision: 36, scale: 8 }).notNull().default('0'),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.asset] }),
    check('balances_available_nonnegative', sql`${t.available} >= 0`),
    check('balances_frozen_nonnegative', sql`${t.frozen} >= 0`),
  ],
);

/**
 * The append-only ledger: every balance change is one entry, written in the same transaction.
 * (kind, reference, user, asset, bucket) is unique, so one business event can never pay twice.
 * `seq` is the order entries took effect in: for one account (user, asset) it is its commit order,
 * because the ledger takes it only while it holds that account's balance row (domain/ledger.ts).
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    asset: text('asset').notNull(),
    bucket: text('bucket').notNull(),
    amount: numeric('amount', { precision: 36, scale: 8 }).notNull(),
    kind: text('kind').notNull(),
    reference: text('reference').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    /** The order of taking effect: drawn from one sequence while the account's balance row is locked. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
  },
  (t) => [
    uniqueIndex('ledger_entries_once').on(t.kind, t.reference, t.userId, t.asset, t.bucket),
    index('ledger_entries_user_idx').on(t.userId, t.createdAt),
    // Statements page one account by seq; account details page one customer's entries by seq.
    index('ledger_entries_account_seq_idx').on(t.userId, t.asset, t.seq),
    index('ledger_entries_user_seq_idx').on(t.userId, t.seq),
  ],
);

/** Option products: per coin an expiry chosen in minutes with its yield, and a minimum stake (1 USDT by default). */
export const optionProducts = pgTable('option_products', {
  id: serial('id').primaryKey(),
  coin: text('coin').notNull(),
  minutes: integer('minutes').notNull(),
  yieldRate: numeric('yield_rate', { precision: 10, scale: 4 }).notNull(),
  minAmount: numeric('min_amount', { precision: 36, scale: 8 }).notNull().default('1'),
  active: boolean('active').notNull().default(true),
  sort: integer('sort').notNull().default(0),
});

export const optionOrders = pgTable(
  'option_orders',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    coin: text('coin').notNull(),
    productId: integer('product_id').notNull(),
    direction: text('direction').notNull(),
    amount: numeric('amount', { precision: 36, scale: 8 }).notNull(),
    minutes: integer('minutes').notNull(),
    yieldRate: numeric('yield_rate', { precision: 10, scale: 4 }).notNull(),
    /** The first tick recorded after the order was accepted (null while it is opening, or void for want of one). */
    startPrice: numeric('start_price', { precision: 36, scale: 12 }),
    startPriceAt: at('start_price_at'),
    /** The start tick's constituents when it came from the market index (kept here: ticks are thinned after 48 h). */
    startConstituents: jsonb('start_constituents').$type<Constituent[]>(),
    /** When the order was accepted and the stake debited. */
    startAt: at('start_at').notNull(),
    /** The start tick's time plus the product's minutes (null until the start tick is recorded). */
    endAt: at('end_at'),
    status: text('status').notNull().default('holding'),
    endPrice: numeric('end_price', { precision: 36, scale: 12 }),
    endPriceAt: at('end_price_at'),
    endConstituents: jsonb('end_constituents').$type<Constituent[]>(),
    outcome: text('outcome'),
    payout: numeric('payout', { precision: 36, scale: 8 }),
    profit: numeric('profit', { precision: 36, scale: 8 }),
    settledAt: at('settled_at'),
    /** Traded with practice money (its ledger assets are practiceAsset(...)): never in real figures or limits. */
    practice: boolean('practice').notNull().default(false),
  },
  (t) => [
    index('option_orders_due_idx').on(t.status, t.endAt, t.id),
    index('option_orders_user_idx').on(t.userId, t.status, t.id),
    // The orders waiting for their start tick (few at any time: each opens within a second).
    index('option_orders_opening_idx')
      .on(t.startAt, t.id)
      .where(sql`${t.status} = 'opening'`),
    // The house limits: a customer's stakes of the last minute, and the open orders of a coin and direction.
    index('option_orders_user_start_idx').on(t.userId, t.startAt),
    index('option_orders_open_exposure_idx')
      .on(t.coin, t.direction)
      .where(sql`${t.status} in ('opening', 'holding')`),
    check('option_orders_amount_positive', sql`${t.amount} > 0`),
  ],
);

/**
 * What the house would pay if every open option of one coin and direction won: the sum of stake × (1 + yield),
 * truncated to 8 decimals, over the orders opening or holding with real money. Kept by database triggers on
 * option_orders (migration 0035) in the transaction that inserts an order or moves it out of the open states, so it
 * always equals that sum; an order reads this one row against the exposure cap (domain/house-limits.ts), and the
 * row's lock, taken by the insert, orders two placements on the same side.
 */
export const houseExposure = pgTable(
  'house_exposure',
  {
    coin: text('coin').notNull(),
    direction: text('direction').notNull(),
    openPayout: numeric('open_payout', { precision: 38, scale: 8 }).notNull().default('0'),
  },
  (t) => [primaryKey({ columns: [t.coin, t.direction] })],
);

/** Display currencies per USDT (the base currency is baht, ฿), set by the operator. */
export const fiatRates = pgTable('fiat_rates', {
  code: text('code').primaryKey(),
  symbol: text('symbol').notNull(),
  rate: numeric('rate', { precision: 20, scale: 8 }).notNull(),
});

// ---- Station messages: unread until read -------------------------------------------------------

/** A notice to one user, or to every user (user_id null), including those who register later. */
export const messages = pgTable(
  'messages',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').references(() => users.id),
    title: text('title').notNull(),
    content: text('content').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  // One user's listing (newest first) reads the user's own rows and the broadcasts (user_id null).
  (t) => [index('messages_user_idx').on(t.userId, t.id)],
);

/** A message is unread for a user until that user's row exists here (broadcasts included). */
export const messageReads = pgTable(
  'message_reads',
  {
    messageId: integer('message_id')
      .notNull()
      .references(() => messages.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    readAt: at('read_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.userId] })],
);

// ---- Money in and out: recharges and withdrawals, each reviewed --------------------------------

/** Where customers pay in: a crypto address on a chain, or a bank account. */
export const rechargeChannels = pgTable('recharge_channels', {
  id: serial('id').primaryKey(),
  kind: text('kind').notNull(),
  name: text('name').notNull(),
  /** What the amount is typed in (USDT, or THB for a bank transfer). */
  currency: text('currency').notNull(),
  /** What is credited. */
  asset: text('asset').notNull().default('USDT'),
  chain: text('chain'),
  /** The account shown to every customer: a bank account, or a crypto channel's one address without `xpub`. */
  address: text('address').notNull(),
  /** A crypto channel's BIP-32 extended public key (account level): each customer is shown their own address under it
   * instead of `address` (domain/deposit-addresses.ts). Null: every customer is shown `address`. */
  xpub: text('xpub'),
  /** The keys `xpub` held before, oldest first: a customer's address under one is still the platform's wallet (a
   * transfer may still arrive there, and no payout may go there), so the wallet check refuses it. */
  previousXpubs: text('previous_xpubs')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  bankName: text('bank_name').notNull().default(''),
  accountName: text('account_name').notNull().default(''),
  minAmount: numeric('min_amount', { precision: 36, scale: 8 }).notNull(),
  sort: integer('sort').notNull().default(0),
  active: boolean('active').notNull().default(true),
});

export const rechargeOrders = pgTable(
  'recharge_orders',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    orderNo: text('order_no').notNull().unique(),
    channelId: integer('channel_id')
      .notNull()
      .references(() => rechargeChannels.id),
    kind: text('kind').notNull(),
    channelName: text('channel_name').notNull(),
    chain: text('chain'),
    address: text('address').notNull(),
    currency: text('currency').notNull(),
    amount: numeric('amount', { precision: 36, scale: 8 }).notNull(),
    rate: numeric('rate', { precision: 20, scale: 8 }).notNull(),
    asset: text('asset').notNull(),
    actualAmount: numeric('actual_amount', { precision: 36, scale: 8 }).notNull(),
    hash: text('hash'),
    proof: text('proof').notNull().default(''),
    /** SHA-256 of the receipt picture's bytes (`proof`), kept when the recharge is made: one picture backs one recharge
     * whoever uploads it and however often. Null without a receipt, and on a recharge made before it was kept. */
    proofDigest: bytea('proof_digest'),
    blockHeight: text('block_height').notNull().default(''),
    remark: text('remark').notNull().default(''),
    reason: text('reason').notNull().default(''),
    status: text('status').notNull().default('pending'),
    createdAt: at('created_at').notNull(),
    reviewedAt: at('reviewed_at'),
  },
  (t) => [
    index('recharge_orders_user_idx').on(t.userId, t.id),
    index('recharge_orders_status_idx').on(t.status, t.id),
    // A wallet is never an address a customer was given to pay in to: a new wallet's address is looked up here
    // (payouts.ts), in any case.
    index('recharge_orders_address_idx').on(sql`lower(${t.address})`),
    // One transaction hash credits once; a rejected claim does not block the rightful one.
    uniqueIndex('recharge_orders_hash_once')
      .on(t.hash)
      .where(sql`${t.hash} is not null and ${t.status} <> 'rejected'`),
    // One receipt picture, byte for byte, backs one recharge, whoever uploaded it; a rejected one may be sent again.
    uniqueIndex('recharge_orders_proof_once')
      .on(t.proofDigest)
      .where(sql`${t.proofDigest} is not null and ${t.status} <> 'rejected'`),
    check('recharge_orders_amount_positive', sql`${t.amount} > 0 and ${t.actualAmount} > 0`),
  ],
);

/** Per asset: the withdrawal fee rate and the limits of one withdrawal. */
export const withdrawRules = pgTable('withdraw_rules', {
  asset: text('asset').primaryKey(),
  feeRate: numeric('fee_rate', { precision: 10, scale: 6 }).notNull(),
  minAmount: numeric('min_amount', { precision: 36, scale: 8 }).notNull(),
  maxAmount: numeric('max_amount', { precision: 36, scale: 8 }).notNull(),
});

export const withdrawOrders = pgTable(
  'withdraw_orders',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    orderNo: text('order_no').notNull().unique(),
    target: text('target').notNull(),
    /** The card or wallet chosen; its details are copied below, so deleting it changes no record. */
    payeeId: integer('payee_id').notNull(),
    asset: text('asset').notNull(),
    amount: numeric('amount', { precision: 36, scale: 8 }).notNull(),
    feeRate: numeric('fee_rate', { precision: 10, scale: 6 }).notNull(),
    fee: numeric('fee', { precision: 36, scale: 8 }).notNull(),
    total: numeric('total', { precision: 36, scale: 8 }).notNull(),
    actualAmount: numeric('actual_amount', { precision: 36, scale: 8 }).notNull(),
    payeeName: text('payee_name').notNull(),
    payeeAccount: text('payee_account').notNull(),
    payeeNetwork: text('payee_network').notNull(),
    fiatCurrency: text('fiat_currency').notNull().default(''),
    fiatRate: numeric('fiat_rate', { precision: 20, scale: 8 }),
    fiatAmount: numeric('fiat_amount', { precision: 36, scale: 2 }),
    status: text('status').notNull().default('review'),
    reason: text('reason').notNull().default(''),
    hash: text('hash').notNull().default(''),
    createdAt: at('created_at').notNull(),
    reviewedAt: at('reviewed_at'),
  },
  (t) => [
    index('withdraw_orders_user_idx').on(t.userId, t.id),
    index('withdraw_orders_status_idx').on(t.status, t.id),
    // A payout's transaction is never a deposit: a recharge reporting it is looked up here (recharge.ts), in any case.
    index('withdraw_orders_payout_hash_idx')
      .on(sql`lower(${t.hash})`)
      .where(sql`${t.hash} <> ''`),
    check('withdraw_orders_amount_positive', sql`${t.amount} > 0 and ${t.total} = ${t.amount} + ${t.fee}`),
  ],
);

/**
 * Accounts whose stored mobile number could not be brought to E.164 when numbers were made canonical: `duplicate` when
 * two or more accounts hold one handset (`phone`, the E.164 they share), `not_mobile` when the stored text is no mobile
 * number. They keep their number as stored and are listed for operators; accounts are never merged here.
 */
export const phoneDuplicates = pgTable(
  'phone_duplicates',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id),
    kind: text('kind').notNull(),
    /** The E.164 number the accounts of a duplicate share; null for `not_mobile`. */
    phone: text('phone'),
    /** The account's number as it is stored. */
    storedPhone: text('stored_phone').notNull(),
    foundAt: at('found_at').notNull(),
  },
  (t) => [
    index('phone_duplicates_phone_idx').on(t.phone),
    check('phone_duplicates_kind_known', sql`${t.kind} in ('duplicate', 'not_mobile')`),
  ],
);

export const bankCards = pgTable(
  'bank_cards',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    realName: text('real_name').notNull(),
    ifsc: text('ifsc').notNull(),
    bankCode: text('bank_code').notNull(),
    bankNumber: text('bank_number').notNull(),
    phone: text('phone').notNull(),
    email: text('email').notNull(),
    /** The customer's own name for this payee ('Rent', 'My savings'); '' when none. */
    label: text('label').notNull().default(''),
    createdAt: at('created_at').notNull(),
    /** When withdrawals to it may start, fixed when it was saved (its cooling-off period then); null for a payee saved
     * before this was kept, whose wait is the period configured now (domain/payouts.ts). */
    usableAt: at('usable_at'),
  },
  (t) => [index('bank_cards_user_idx').on(t.userId)],
);

export const wallets = pgTable(
  'wallets',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    alias: text('alias').notNull(),
    currency: text('currency').notNull(),
    chain: text('chain').notNull(),
    address: text('address').notNull(),
    createdAt: at('created_at').notNull(),
    /** When withdrawals to it may start, fixed when it was saved (its cooling-off period then); null for a payee saved
     * before this was kept, whose wait is the period configured now (domain/payouts.ts). */
    usableAt: at('usable_at'),
  },
  (t) => [uniqueIndex('wallets_user_address_once').on(t.userId, t.currency, t.chain, t.address)],
);

/** Every certification submission; the latest of a user's level is its state. */
export const certifications = pgTable(
  'certifications',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    level: text('level').notNull(),
    docType: text('doc_type'),
    name: text('name').notNull().default(''),
    number: text('number').notNull().default(''),
    images: jsonb('images').$type<Record<string, string>>().notNull(),
    status: text('status').notNull().default('review'),
    reason: text('reason').notNull().default(''),
    createdAt: at('created_at').notNull(),
    reviewedAt: at('reviewed_at'),
  },
  (t) => [
    index('certifications_user_idx').on(t.userId, t.level, t.id),
    index('certifications_status_idx').on(t.status, t.id),
    // At most one submission of a level waits for review at a time.
    uniqueIndex('certifications_one_in_review')
      .on(t.userId, t.level)
      .where(sql`${t.status} = 'review'`),
  ],
);

/** VIP levels by cumulative recharge: `value` is a level's ceiling (USDT). */
export const vipLevels = pgTable('vip_levels', {
  level: integer('level').primaryKey(),
  name: text('name').notNull(),
  value: numeric('value', { precision: 36, scale: 8 }).notNull(),
});

// ---- Coin-to-coin contracts: market or limit orders, revocable while open ----------------------

/**
 * A listed coin traded against USDT: its rules (tick and step size, minimum notional, fee, the
 * fat-finger band), edited by the operator command, and `matched_through`: the last recorded tick
 * of the coin the matching job has applied to the open orders (it advances in the transaction
 * that fills what those ticks crossed).
 */
export const contractPairs = pgTable('contract_pairs', {
  coin: text('coin').primaryKey(),
  priceDecimals: integer('price_decimals').notNull(),
  quantityDecimals: integer('quantity_decimals').notNull(),
  minNotional: numeric('min_notional', { precision: 36, scale: 8 }).notNull(),
  feeRate: numeric('fee_rate', { precision: 10, scale: 6 }).notNull(),
  priceBand: numeric('price_band', { precision: 10, scale: 4 }).notNull(),
  active: boolean('active').notNull().default(true),
  matchedThrough: at('matched_through').notNull(),
});

export const contractOrders = pgTable(
  'contract_orders',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    coin: text('coin').notNull(),
    side: text('side').notNull(),
    type: text('type').notNull(),
    status: text('status').notNull(),
    /** The limit price; null for a market order. */
    price: numeric('price', { precision: 36, scale: 12 }),
    quantity: numeric('quantity', { precision: 36, scale: 8 }).notNull(),
    totalAsked: numeric('total_asked', { precision: 36, scale: 8 }),
    feeRate: numeric('fee_rate', { precision: 10, scale: 6 }).notNull(),
    frozenAsset: text('frozen_asset').notNull(),
    frozen: numeric('frozen', { precision: 36, scale: 8 }).notNull().default('0'),
    /** Only recorded ticks after this one can fill the order (the latest when it was placed, or later). */
    eligibleAfter: at('eligible_after').notNull(),
    unitPrice: numeric('unit_price', { precision: 36, scale: 12 }),
    dealtQuantity: numeric('dealt_quantity', { precision: 36, scale: 8 }).notNull().default('0'),
    total: numeric('total', { precision: 36, scale: 8 }),
    fee: numeric('fee', { precision: 36, scale: 8 }),
    feeAsset: text('fee_asset'),
    spent: numeric('spent', { precision: 36, scale: 8 }),
    spentAsset: text('spent_asset'),
    received: numeric('received', { precision: 36, scale: 8 }),
    receivedAsset: text('received_asset'),
    tickPrice: numeric('tick_price', { precision: 36, scale: 12 }),
    tickAt: at('tick_at'),
    /** The fill tick's constituents when it came from the market index. */
    tickConstituents: jsonb('tick_constituents').$type<Constituent[]>(),
    createdAt: at('created_at').notNull(),
    filledAt: at('filled_at'),
    cancelledAt: at('cancelled_at'),
    /** Why an order was void: no tick recorded in time after it was accepted ('no_price'), or that tick moved past its
     * reserve ('price_moved'). */
    voidReason: text('void_reason'),
    /** Traded with practice money (its ledger assets are practiceAsset(...)): never in real figures or limits. */
    practice: boolean('practice').notNull().default(false),
    /** A conditional order (stop, stop-limit, take-profit or stop-loss): the recorded price that releases it. */
    triggerPrice: numeric('trigger_price', { precision: 36, scale: 12 }),
    /** Which way the price must go: true at or above the trigger, false at or below; null for a plain order. */
    triggerAbove: boolean('trigger_above'),
    /** When the matcher released it, and the recorded tick (time and price) that did. */
    triggeredAt: at('triggered_at'),
    triggerTickAt: at('trigger_tick_at'),
    triggerTickPrice: numeric('trigger_tick_price', { precision: 36, scale: 12 }),
    /** A waiting conditional order not released by then expires (its reserve returns). */
    expiresAt: at('expires_at'),
    /** A take-profit or stop-loss leg: 'take_profit' | 'stop_loss'. */
    leg: text('leg'),
    /** Both legs of one OCO pair carry the id of its stop-loss leg: one fills, the other is cancelled. */
    ocoGroup: integer('oco_group'),
    /** Legs attached to an open order wait ('attached') for that order to fill, then hold what it bought. */
    parentId: integer('parent_id'),
    /** A small balance's conversion to USDT: a market sell of an amount the pair's rules refuse, posted as dust_*. */
    dustConversion: boolean('dust_conversion').notNull().default(false),
  },
  (t) => [
    // A tick touches only the waiting triggers it reaches: those above at or below it, those below at or above.
    index('contract_orders_waiting_above')
      .on(t.coin, t.triggerPrice)
      .where(sql`${t.status} = 'waiting' and ${t.triggerAbove}`),
    index('contract_orders_waiting_below')
      .on(t.coin, t.triggerPrice)
      .where(sql`${t.status} = 'waiting' and not ${t.triggerAbove}`),
    // The matcher looks for lapsed waiting orders every second, a tick or none: it reads only those due.
    index('contract_orders_waiting_expiry')
      .on(t.coin, t.expiresAt)
      .where(sql`${t.status} = 'waiting'`),
    index('contract_orders_oco')
      .on(t.ocoGroup)
      .where(sql`${t.ocoGroup} is not null`),
    index('contract_orders_parent')
      .on(t.parentId)
      .where(sql`${t.parentId} is not null`),
    // A tick touches only the open limits it crosses: buys priced at or above it, sells at or below.
    index('contract_orders_open_buys')
      .on(t.coin, t.price)
      .where(sql`${t.status} = 'open' and ${t.side} = 'buy'`),
    index('contract_orders_open_sells')
      .on(t.coin, t.price)
      .where(sql`${t.status} = 'open' and ${t.side} = 'sell'`),
    index('contract_orders_user_idx').on(t.userId, t.status, t.id),
    check('contract_orders_quantity_positive', sql`${t.quantity} > 0`),
    // A market order waits for the first tick after it was accepted: few at any time.
    index('contract_orders_filling')
      .on(t.coin, t.createdAt, t.id)
      .where(sql`${t.status} = 'filling'`),
    check(
      'contract_orders_status',
      sql`${t.status} in ('open', 'filling', 'filled', 'cancelled', 'void', 'waiting', 'attached', 'expired')`,
    ),
  ],
);

// ---- Earn: liquidity and lock-up mining -------------------------------------------------------

/** The liquidity ladder published for an interest day; a day without its own row uses the latest before it. */
export const liquidityRates = pgTable('liquidity_rates', {
  day: text('day').primaryKey(),
  ladder: jsonb('ladder').$type<{ up_to: string | null; rate: string }[]>().notNull(),
  publishedAt: at('published_at').notNull(),
});

/**
 * The liquidity record: subscriptions, redemptions and interest, each with the interest day it
 * happened on. The daily job reads a day's rows; the ledger holds the money.
 */
export const liquidityRecords = pgTable(
  'liquidity_records',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind').notNull(),
    mode: text('mode'),
    amount: numeric('amount', { precision: 36, scale: 8 }).notNull(),
    day: text('day').notNull(),
    status: text('status').notNull(),
    payDay: text('pay_day'),
    createdAt: at('created_at').notNull(),
    paidAt: at('paid_at'),
  },
  (t) => [
    index('liquidity_records_user_idx').on(t.userId, t.id),
    index('liquidity_records_day_idx').on(t.day, t.kind),
    index('liquidity_records_payable_idx')
      .on(t.payDay)
      .where(sql`${t.status} in ('submitted', 'waiting')`),
    check('liquidity_records_amount_positive', sql`${t.amount} > 0`),
  ],
);

/** Per holder: the liquidity balance at the end of the last interest day the job closed (the next day's base). */
export const liquidityAccounts = pgTable('liquidity_accounts', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  closedDay: text('closed_day').notNull(),
  closing: numeric('closing', { precision: 36, scale: 8 }).notNull(),
  lastInterest: numeric('last_interest', { precision: 36, scale: 8 }).notNull().default('0'),
  totalInterest: numeric('total_interest', { precision: 36, scale: 8 }).notNull().default('0'),
});

export const lockupProducts = pgTable('lockup_products', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  days: integer('days').notNull(),
  dailyRate: numeric('daily_rate', { precision: 10, scale: 6 }).notNull(),
  minAmount: numeric('min_amount', { precision: 36, scale: 8 }).notNull(),
  maxAmount: numeric('max_amount', { precision: 36, scale: 8 }).notNull(),
  quota: numeric('quota', { precision: 36, scale: 8 }),
  sold: numeric('sold', { precision: 36, scale: 8 }).notNull().default('0'),
  active: boolean('active').notNull().default(true),
  sort: integer('sort').notNull().default(0),
});

export const lockupOrders = pgTable(
  'lockup_orders',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    productId: integer('product_id')
      .notNull()
      .references(() => lockupProducts.id),
    name: text('name').notNull(),
    amount: numeric('amount', { precision: 36, scale: 8 }).notNull(),
    days: integer('days').notNull(),
    dailyRate: numeric('daily_rate', { precision: 10, scale: 6 }).notNull(),
    dailyIncome: numeric('daily_income', { precision: 36, scale: 8 }).notNull(),
    startDay: text('start_day').notNull(),
    endDay: text('end_day').notNull(),
    status: text('status').notNull().default('processing'),
    earned: numeric('earned', { precision: 36, scale: 8 }).notNull().default('0'),
    createdAt: at('created_at').notNull(),
    endedAt: at('ended_at'),
  },
  (t) => [
    index('lockup_orders_user_idx').on(t.userId, t.id),
    index('lockup_orders_processing_idx')
      .on(t.startDay, t.endDay)
      .where(sql`${t.status} = 'processing'`),
    check('lockup_orders_amount_positive', sql`${t.amount} > 0`),
  ],
);

/** The shared daily scheduler: one row per job and interest day, written in the transaction that did the day's work. */
export const dailyRuns = pgTable(
  'daily_runs',
  {
    job: text('job').notNull(),
    day: text('day').notNull(),
    rows: integer('rows').notNull().default(0),
    doneAt: at('done_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.job, t.day] })],
);

// ---- Engagement: daily check-in, welfare, activities, the blind box, invitations, content ------

/**
 * The daily check-in: one row per user and local day (`day` in the configured timezone); the primary key makes a second
 * check-in that day impossible. The table keeps its historical name, sign_ins.
 */
export const checkIns = pgTable(
  'sign_ins',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    day: text('day').notNull(),
    /** Consecutive days ending with this one. */
    streak: integer('streak').notNull(),
    reward: numeric('reward', { precision: 36, scale: 8 }).notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);

/** A reward task (welfare): its condition is named by `code` and checked on the server. */
export const welfareTasks = pgTable('welfare_tasks', {
  code: text('code').primaryKey(),
  asset: text('asset').notNull(),
  reward: numeric('reward', { precision: 36, scale: 8 }).notNull(),
  sort: integer('sort').notNull().default(0),
  active: boolean('active').notNull().default(true),
});

/** A claimed task: the primary key pays each task once per user. */
export const welfareClaims = pgTable(
  'welfare_claims',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    taskCode: text('task_code').notNull(),
    asset: text('asset').notNull(),
    reward: numeric('reward', { precision: 36, scale: 8 }).notNull(),
    claimedAt: at('claimed_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.taskCode] })],
);

/**
 * Referral rewards (domain/referrals.ts): one row per friend whose reward was paid to the inviter. The primary key
 * pays each friend at most once, whatever happens to their certification later; the money itself is the inviter's
 * ledger entry (kind `referral_reward`, reference `referral:<friend id>`) posted in the same transaction.
 */
export const referralRewards = pgTable('referral_rewards', {
  friendId: integer('friend_id')
    .primaryKey()
    .references(() => users.id),
  inviterId: integer('inviter_id')
    .notNull()
    .references(() => users.id),
  asset: text('asset').notNull(),
  amount: numeric('amount', { precision: 36, scale: 8 }).notNull(),
  paidAt: at('paid_at').notNull(),
});

/** Activities (the call /content/sale): managed by the operator command; `body` is kept sanitised. */
export const activities = pgTable('activities', {
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  cover: text('cover').notNull().default(''),
  body: text('body').notNull().default(''),
  startsAt: at('starts_at').notNull(),
  endsAt: at('ends_at'),
  sort: integer('sort').notNull().default(0),
  active: boolean('active').notNull().default(true),
  createdAt: at('created_at').notNull().defaultNow(),
});

/** Pages of text by key (about, intro, faq) and language; the request language picks one, English is the fallback. */
export const contentPages = pgTable(
  'content_pages',
  {
    key: text('key').notNull(),
    lang: text('lang').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.lang] })],
);

/**
 * What operators write for customers, in the languages other than English: a scroll notice (kind
 * 'config', item 'system.scroll_notice'), a slide's title, a station message's title and content, an
 * activity's title and body. The item's own row is the English version and the fallback of every
 * language without one here (domain/content-languages.ts); pages keep their languages in content_pages.
 */
export const contentTranslations = pgTable(
  'content_translations',
  {
    kind: text('kind').notNull(),
    /** The item's id in its table ('12'), or the config entry's 'act.key'. */
    item: text('item').notNull(),
    lang: text('lang').notNull(),
    title: text('title').notNull().default(''),
    body: text('body').notNull().default(''),
  },
  (t) => [primaryKey({ columns: [t.kind, t.item, t.lang] })],
);

/** Blind box prizes with published odds: `weight` in parts per million, the active ones sum to 1,000,000. Null stock:
 * unlimited. */
export const boxPrizes = pgTable(
  'box_prizes',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    asset: text('asset').notNull(),
    amount: numeric('amount', { precision: 36, scale: 8 }).notNull(),
    weight: integer('weight').notNull(),
    stock: integer('stock'),
    sort: integer('sort').notNull().default(0),
    active: boolean('active').notNull().default(true),
  },
  (t) => [
    check('box_prizes_stock_nonnegative', sql`${t.stock} is null or ${t.stock} >= 0`),
    check('box_prizes_weight_positive', sql`${t.weight} > 0`),
  ],
);

/**
 * A user's seed pair: the server seed stays secret (only its SHA-256 is shown) until it is
 * rotated, which reveals it. At most one unrevealed seed per user.
 */
export const boxSeeds = pgTable(
  'box_seeds',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    serverSeed: text('server_seed').notNull(),
    serverHash: text('server_hash').notNull(),
    clientSeed: text('client_seed').notNull(),
    /** The nonce of the next draw with this seed. */
    nextNonce: integer('next_nonce').notNull().default(0),
    /**
     * The prize table ([{ id, weight }] in order) in force when the seed was committed: every draw with
     * this seed maps onto it. The operator knows the server seeds, so a table published later must not
     * apply to a seed already committed (it could be arranged around a known next roll).
     */
    prizeTable: jsonb('prize_table')
      .$type<{ id: number; weight: number }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    createdAt: at('created_at').notNull(),
    revealedAt: at('revealed_at'),
  },
  (t) => [
    index('box_seeds_user_idx').on(t.userId, t.id),
    uniqueIndex('box_seeds_one_active')
      .on(t.userId)
      .where(sql`${t.revealedAt} is null`),
  ],
);

/** A draw: the roll, the prize and the prize table in force (so any draw can be verified later), paid in one
 * transaction. */
export const boxDraws = pgTable(
  'box_draws',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    seedId: integer('seed_id')
      .notNull()
      .references(() => boxSeeds.id),
    nonce: integer('nonce').notNull(),
    clientSeed: text('client_seed').notNull(),
    roll: integer('roll').notNull(),
    prizeId: integer('prize_id')
      .notNull()
      .references(() => boxPrizes.id),
    prizeName: text('prize_name').notNull(),
    prizeAsset: text('prize_asset').notNull(),
    prizeAmount: numeric('prize_amount', { precision: 36, scale: 8 }).notNull(),
    costAsset: text('cost_asset').notNull(),
    cost: numeric('cost', { precision: 36, scale: 8 }).notNull(),
    /** [{ id, weight }] in table order: what the roll was mapped onto. */
    prizeTable: jsonb('prize_table').$type<{ id: number; weight: number }[]>().notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('box_draws_seed_nonce').on(t.seedId, t.nonce),
    index('box_draws_user_idx').on(t.userId, t.id),
    index('box_draws_created_idx').on(t.createdAt),
  ],
);

/** The invitation permission sharing needs, granted by the operator; primary certification grants it too (checked, not
 * stored). */
export const invitePermissions = pgTable('invite_permissions', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  grantedAt: at('granted_at').notNull(),
  reason: text('reason').notNull().default(''),
});

/**
 * A user's authenticator (two-factor, RFC 6238): one row per user. The secret is encrypted with the
 * server's key (domain/two-factor-key.ts), so the database alone does not give it away. On once
 * `confirmed_at` is set; `last_step` is the newest 30-second step whose code was accepted: a code of
 * that step or an older one is refused (a used code cannot be used twice).
 */
export const twoFactors = pgTable('two_factors', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  secret: text('secret').notNull(),
  confirmedAt: at('confirmed_at'),
  lastStep: integer('last_step').notNull().default(0),
  createdAt: at('created_at').notNull(),
  /** When the customer last ended their other sessions: a device remembered before it asks for a code again. */
  devicesForgottenAt: at('devices_forgotten_at'),
});

/** One-time recovery codes of two-factor authentication, stored as keyed digests; `used_at` once used. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    codeHash: text('code_hash').notNull(),
    usedAt: at('used_at'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [uniqueIndex('recovery_codes_user_code').on(t.userId, t.codeHash)],
);

/**
 * A customer's passkeys (WebAuthn discoverable credentials). `id` is the credential id
 * (base64url); `counter` the authenticator's signature counter, which only moves forward.
 */
export const passkeys = pgTable(
  'passkeys',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    publicKey: bytea('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** 'singleDevice' | 'multiDevice' (a synced passkey) */
    deviceType: text('device_type').notNull().default('singleDevice'),
    backedUp: boolean('backed_up').notNull().default(false),
    /** The name shown in Settings: the device it was made on, unless the customer renames it. */
    name: text('name').notNull().default(''),
    createdAt: at('created_at').notNull().defaultNow(),
    lastUsedAt: at('last_used_at'),
  },
  (t) => [index('passkeys_user_idx').on(t.userId)],
);

/**
 * A WebAuthn challenge handed out and not yet answered: used once (deleted when answered), dead at
 * `expires_at`. Kept in the database so the answer may reach another server process.
 */
export const webauthnChallenges = pgTable('webauthn_challenges', {
  challenge: text('challenge').primaryKey(),
  /** 'register' (adding a passkey, user_id set) | 'login' (no user: the passkey says who) */
  purpose: text('purpose').notNull(),
  userId: integer('user_id').references(() => users.id),
  expiresAt: at('expires_at').notNull(),
});

/** A browser's Web Push subscription (its push service endpoint and keys), one row per endpoint. */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    endpoint: text('endpoint').notNull().unique(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    /** The app's language when it subscribed: notifications are written in it. */
    language: text('language').notNull().default('en'),
    device: text('device').notNull().default(''),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('push_subscriptions_user_idx').on(t.userId)],
);

/** Which kinds of notification a customer turned off (none by default). */
export const notificationSettings = pgTable('notification_settings', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  off: text('off')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
});

/** Keys the server makes on its first start and keeps (the VAPID key pair of Web Push): the first process to write one
 * wins. */
export const serverKeys = pgTable('server_keys', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: at('created_at').notNull().defaultNow(),
});

// ---- The operator console: operators, their sessions, four eyes, the audit log ------------------

/**
 * A console operator, apart from the customers: one role, a password (argon2id, like customers')
 * to change at the first sign-in, and a mandatory authenticator (TOTP) whose secret is sealed with
 * the server's two-factor key; `totp_last_step` is the newest step accepted (a used code is refused).
 */
export const operators = pgTable(
  'operators',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull().unique(),
    /** 'reviewer' | 'content' | 'admin' */
    role: text('role').notNull(),
    passwordHash: text('password_hash').notNull(),
    mustChangePassword: boolean('must_change_password').notNull().default(true),
    totpSecret: text('totp_secret').notNull(),
    totpLastStep: integer('totp_last_step').notNull().default(0),
    createdAt: at('created_at').notNull(),
    disabledAt: at('disabled_at'),
  },
  (t) => [check('operators_role_known', sql`${t.role} in ('reviewer', 'content', 'admin')`)],
);

/** Console sessions: only the token's SHA-256 is kept; they end idle (CONSOLE_IDLE_MINUTES) or at sign-out
 * (`ended_at`). */
export const operatorSessions = pgTable(
  'operator_sessions',
  {
    id: serial('id').primaryKey(),
    operatorId: integer('operator_id')
      .notNull()
      .references(() => operators.id),
    tokenHash: text('token_hash').notNull().unique(),
    ip: text('ip').notNull().default(''),
    createdAt: at('created_at').notNull(),
    lastSeenAt: at('last_seen_at').notNull(),
    endedAt: at('ended_at'),
  },
  (t) => [index('operator_sessions_operator_idx').on(t.operatorId)],
);

/** Four eyes: the first approval of a large withdrawal, by operator name ('ops' for the command); the second approver
 * completes it. */
export const withdrawalApprovals = pgTable(
  'withdrawal_approvals',
  {
    withdrawId: integer('withdraw_id')
      .notNull()
      .references(() => withdrawOrders.id),
    operator: text('operator').notNull(),
    at: at('at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.withdrawId, t.operator] })],
);

/** Four eyes: the first approval of a large recharge, by operator name ('ops' for the command); the second approver
 * credits it (operator-reviews.ts, as for a withdrawal). */
export const rechargeApprovals = pgTable(
  'recharge_approvals',
  {
    rechargeId: integer('recharge_id')
      .notNull()
      .references(() => rechargeOrders.id),
    operator: text('operator').notNull(),
    at: at('at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.rechargeId, t.operator] })],
);

/**
 * Every operator action, console or command, written in the action's own transaction: who, from
 * where, what, on what, and the record before and after. Append-only: a trigger refuses UPDATE and
 * DELETE (migration 0017).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    at: at('at').notNull(),
    /** The operator's name; 'ops' for the command line. */
    operator: text('operator').notNull(),
    /** The request's IP address; 'local' for the command line. */
    address: text('address').notNull(),
    /** 'recharge.approve', 'withdrawal.reject', 'operator.add'… */
    action: text('action').notNull(),
    /** What it acted on: 'recharge:12', 'operator:reviewer1'. */
    target: text('target').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at),
    index('audit_log_operator_idx').on(t.operator, t.at),
    index('audit_log_target_idx').on(t.target, t.at),
  ],
);

// ---- Customer service: one conversation per customer, answered by reviewers ---------------------

/**
 * A customer's conversation with the service team: one per customer, made by their first message.
 * `waiting` is true while the customer's last message has no answer (the console's inbox counts
 * them); `customer_read_to` is the id of the last message the customer has seen (their unread are
 * the operators' messages after it). A new message from the customer opens a closed conversation.
 */
export const serviceConversations = pgTable(
  'service_conversations',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .unique()
      .references(() => users.id),
    /** 'open' | 'closed' */
    status: text('status').notNull().default('open'),
    /** The operator who answers it; null while nobody has taken it. */
    assignedTo: integer('assigned_to').references(() => operators.id),
    waiting: boolean('waiting').notNull().default(true),
    customerReadTo: integer('customer_read_to').notNull().default(0),
    lastMessageAt: at('last_message_at').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    check('service_conversations_status_known', sql`${t.status} in ('open', 'closed')`),
    index('service_conversations_inbox_idx').on(t.status, t.waiting, t.lastMessageAt),
  ],
);

/** The messages of a conversation: the customer's (text and/or one picture) and the operators' (text). */
export const serviceMessages = pgTable(
  'service_messages',
  {
    id: serial('id').primaryKey(),
    conversationId: integer('conversation_id')
      .notNull()
      .references(() => serviceConversations.id),
    /** 'customer' | 'operator' */
    author: text('author').notNull(),
    /** The operator who wrote it; null for the customer's. */
    operatorId: integer('operator_id').references(() => operators.id),
    body: text('body').notNull().default(''),
    /** The customer's picture: an upload URL (/api/uploads/<id>), private to them and the reviewers. */
    picture: text('picture'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    check('service_messages_author_known', sql`${t.author} in ('customer', 'operator')`),
    check('service_messages_not_empty', sql`${t.body} <> '' or ${t.picture} is not null`),
    index('service_messages_conversation_idx').on(t.conversationId, t.id),
  ],
);

/** Answers the reviewers keep at hand in the inbox; a removed one stays for the audit log's sake. */
export const serviceCannedReplies = pgTable('service_canned_replies', {
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  body: text('body').notNull(),
  createdAt: at('created_at').notNull(),
  removedAt: at('removed_at'),
});

/** Internal notes on a conversation: seen by operators only, never sent to the customer. */
export const serviceNotes = pgTable(
  'service_notes',
  {
    id: serial('id').primaryKey(),
    conversationId: integer('conversation_id')
      .notNull()
      .references(() => serviceConversations.id),
    operatorId: integer('operator_id')
      .notNull()
      .references(() => operators.id),
    body: text('body').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('service_notes_conversation_idx').on(t.conversationId, t.id)],
);

/** Who is writing an answer in a conversation right now (renewed while they type): the others are warned. */
export const serviceAnswering = pgTable(
  'service_answering',
  {
    conversationId: integer('conversation_id')
      .notNull()
      .references(() => serviceConversations.id),
    operatorId: integer('operator_id')
      .notNull()
      .references(() => operators.id),
    until: at('until').notNull(),
  },
  (t) => [primaryKey({ columns: [t.conversationId, t.operatorId] })],
);

// ---- Watching the system ---------------------------------------------------------------------------

/**
 * A queue item taken by a reviewer ("being reviewed by …") until `expires_at`, so two reviewers do not
 * work one item. `kind` is 'recharge' | 'withdrawal' | 'certification'. A claim is advice for the
 * queue; the decision itself still locks the row (domain/reviews.ts).
 */
export const reviewClaims = pgTable(
  'review_claims',
  {
    kind: text('kind').notNull(),
    itemId: integer('item_id').notNull(),
    operatorId: integer('operator_id')
      .notNull()
      .references(() => operators.id),
    claimedAt: at('claimed_at').notNull(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.itemId] }),
    check('review_claims_kind_known', sql`${t.kind} in ('recharge', 'withdrawal', 'certification')`),
  ],
);

/**
 * Each run of the books' check: whether every balance equals its ledger, frozen amounts equal the
 * reserves, nothing is negative and every settled option has one payout. `mismatches` names what
 * disagrees ([] when all holds). Never a correction: the check only reports.
 */
export const reconciliationRuns = pgTable(
  'reconciliation_runs',
  {
    id: serial('id').primaryKey(),
    startedAt: at('started_at').notNull(),
    finishedAt: at('finished_at').notNull(),
    /** The process that ran it (host:pid). */
    process: text('process').notNull(),
    ok: boolean('ok').notNull(),
    checkedBalances: integer('checked_balances').notNull(),
    mismatches: jsonb('mismatches').notNull(),
  },
  (t) => [index('reconciliation_runs_started_idx').on(t.startedAt)],
);

/** Server processes alive: each renews its row every few seconds; one not seen for a while has stopped. */
export const serverProcesses = pgTable('server_processes', {
  /** host:pid */
  id: text('id').primaryKey(),
  host: text('host').notNull(),
  pid: integer('pid').notNull(),
  version: text('version').notNull(),
  build: text('build').notNull(),
  startedAt: at('started_at').notNull(),
  lastSeenAt: at('last_seen_at').notNull(),
  /** Set when it stopped cleanly. */
  stoppedAt: at('stopped_at'),
});

/**
 * The market index's exchanges as the feed's holder last saw them (written with its steps, read by
 * every process: the console's system page, the metrics of a process that does not hold the feed).
 */
export const feedExchanges = pgTable('feed_exchanges', {
  exchange: text('exchange').primaryKey(),
  connected: boolean('connected').notNull(),
  lastTradeAt: at('last_trade_at'),
  reconnects: integer('reconnects').notNull().default(0),
  malformedFrames: integer('malformed_frames').notNull().default(0),
  /** Per coin: the exchange's last trade time (ISO) it sent. */
  coins: jsonb('coins').notNull().default({}),
  updatedAt: at('updated_at').notNull(),
});

const money = (name: string) => numeric(name, { precision: 36, scale: 8 });

/**
 * A customer's own limits and time-out; null is no limit. A tightening is written here at once; a
 * loosening (a limit raised or removed, a time-out shortened or ended) waits in protection_pending.
 */
export const protectionLimits = pgTable('protection_limits', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  stakeDay: money('stake_day'),
  stakeWeek: money('stake_week'),
  stakeMonth: money('stake_month'),
  lossDay: money('loss_day'),
  lossWeek: money('loss_week'),
  lossMonth: money('loss_month'),
  maxOpenOptions: integer('max_open_options'),
  /** Remind the customer after this many minutes in the app. */
  reminderMinutes: integer('reminder_minutes'),
  /** No paid play (option, contract, lock-up or liquidity order, blind box draw) is accepted before this time. */
  timeoutUntil: at('timeout_until'),
  updatedAt: at('updated_at').notNull(),
});

/** A loosening of one setting of protection_limits, taking effect at effective_at (24 hours after it was asked). */
export const protectionPending = pgTable(
  'protection_pending',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** The protection_limits column's name in the API contract ('stake_day', 'timeout_until', …). */
    setting: text('setting').notNull(),
    /** The new value as text; null removes the limit (or ends the time-out). */
    value: text('value'),
    requestedAt: at('requested_at').notNull(),
    effectiveAt: at('effective_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.setting] })],
);

/** Per UTC day: of the customers who traded options in the 30 days before it, how many lost money on them overall. */
export const riskFigures = pgTable('risk_figures', {
  /** 'YYYY-MM-DD', UTC. */
  day: text('day').primaryKey(),
  traders: integer('traders').notNull(),
  losers: integer('losers').notNull(),
  computedAt: at('computed_at').notNull(),
});

/** The withdrawal address lock: on, withdrawals go only to saved payees past their cooling-off. */
export const addressLocks = pgTable('address_locks', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  /** Since when it is on; null when off. */
  onSince: at('on_since'),
  /** A turning off asked for: it takes effect at this time (24 hours after it was asked). */
  offAt: at('off_at'),
  updatedAt: at('updated_at').notNull(),
});

/**
 * The customer's own freeze of their account (a self-service block, like a bank card's): while frozen, no order,
 * withdrawal or payee change is accepted and no withdrawal in review is paid out. One row per customer who ever froze:
 * `frozen_since` set while frozen, `unfreeze_at` set while an unfreezing waits (24 hours after it was asked).
 */
export const accountFreezes = pgTable('account_freezes', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  /** Since when it is frozen; null when not. */
  frozenSince: at('frozen_since'),
  /** An unfreezing asked for: it takes effect at this time. */
  unfreezeAt: at('unfreeze_at'),
  updatedAt: at('updated_at').notNull(),
});

/**
 * A customer's practice account: virtual USDT to learn with (10,000 when opened and after each reset), held in the
 * ledger under assets of their own (practiceAsset(...)) that no call can move, withdraw or convert. `resets` numbers
 * the grants, so each one is a ledger event of its own.
 */
export const practiceAccounts = pgTable('practice_accounts', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  resets: integer('resets').notNull().default(0),
  openedAt: at('opened_at').notNull(),
  resetAt: at('reset_at'),
});

/**
 * A price alert: tell the customer once when a coin's recorded price goes above or below `price`, or moves by
 * `percent` within 24 hours. Only ticks recorded after `created_at` count. A new alert is weighed on its own from
 * `created_at` (through `checked_through`) until it has caught up with its coin's mark (price_alert_marks); then
 * `checked_through` is null and it is weighed with all the others of its coin, found by index from the range of the
 * ticks new since the mark, so a run with nothing met touches no alert at all. Firing sets `fired_at` in the
 * transaction that queues the push and writes the station message, under a condition on `fired_at is null`: each
 * alert fires once.
 */
export const priceAlerts = pgTable(
  'price_alerts',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    coin: text('coin').notNull(),
    /** 'above' | 'below' | 'move' */
    kind: text('kind').notNull(),
    /** The price for above / below; null for a move. */
    price: numeric('price', { precision: 36, scale: 12 }),
    /** The move in percent (5 = 5 %) for a move; null otherwise. */
    percent: numeric('percent', { precision: 10, scale: 4 }),
    createdAt: at('created_at').notNull(),
    /** While catching up: the last tick time weighed for it alone; null once it follows its coin's mark. */
    checkedThrough: at('checked_through'),
    firedAt: at('fired_at'),
    /** The tick that fired it. */
    firedPrice: numeric('fired_price', { precision: 36, scale: 12 }),
    firedTickAt: at('fired_tick_at'),
    /** For a move: the recorded price 24 hours before the firing tick that it was measured against. */
    firedFromPrice: numeric('fired_from_price', { precision: 36, scale: 12 }),
  },
  (t) => [
    index('price_alerts_user_idx').on(t.userId, t.id),
    // The coins with an alert waiting (the job weighs those only).
    index('price_alerts_waiting_idx')
      .on(t.coin)
      .where(sql`${t.firedAt} is null`),
    // The waiting alerts a range of new ticks can meet: above at or under their highest price, below at or over
    // their lowest, a move at or under their largest move.
    index('price_alerts_above_idx')
      .on(t.coin, t.price)
      .where(sql`${t.firedAt} is null and ${t.kind} = 'above' and ${t.checkedThrough} is null`),
    index('price_alerts_below_idx')
      .on(t.coin, t.price)
      .where(sql`${t.firedAt} is null and ${t.kind} = 'below' and ${t.checkedThrough} is null`),
    index('price_alerts_move_idx')
      .on(t.coin, t.percent)
      .where(sql`${t.firedAt} is null and ${t.kind} = 'move' and ${t.checkedThrough} is null`),
    // The new ones still catching up (few: each joins its coin's mark on its first weighing).
    index('price_alerts_joining_idx')
      .on(t.coin, t.id)
      .where(sql`${t.firedAt} is null and ${t.checkedThrough} is not null`),
    check('price_alerts_kind', sql`${t.kind} in ('above', 'below', 'move')`),
    check(
      'price_alerts_target',
      sql`(${t.kind} = 'move' and ${t.percent} > 0 and ${t.price} is null) or (${t.kind} <> 'move' and ${t.price} > 0 and ${t.percent} is null)`,
    ),
  ],
);

/**
 * Per coin: the last tick time weighed for every alert that follows the mark. A process weighs a coin holding its
 * row FOR UPDATE (another process skips the coin meanwhile) and moves it in the transaction that fires what met.
 */
export const priceAlertMarks = pgTable('price_alert_marks', {
  coin: text('coin').primaryKey(),
  checkedThrough: at('checked_through').notNull(),
});

/**
 * Proof of liabilities (domain/LIABILITIES.md): each customer's salt, 32 random bytes in hex, made at their first
 * tree. The leaf id is SHA-256(salt || account id); the salt is shown to that customer only.
 */
export const liabilitySalts = pgTable('liability_salts', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  salt: text('salt').notNull(),
});

/**
 * A published tree: its root hash and the totals per asset (whole minor units, in `assets` order) over every
 * customer's real balances as of `cutoffAt`. Never changed once written: the history of roots. A daily tree carries
 * its UTC `day` (unique: one per day however many processes build it); a tree an operator asked for has none.
 */
export const liabilityRoots = pgTable(
  'liability_roots',
  {
    id: serial('id').primaryKey(),
    day: text('day'),
    cutoffAt: at('cutoff_at').notNull(),
    /** The highest ledger seq the tree took in (0 with an empty ledger). */
    throughSeq: bigint('through_seq', { mode: 'number' }).notNull(),
    rootHash: text('root_hash').notNull(),
    assets: jsonb('assets').$type<string[]>().notNull(),
    totals: jsonb('totals').$type<string[]>().notNull(),
    decimals: integer('decimals').notNull(),
    leaves: integer('leaves').notNull(),
    builtAt: at('built_at').notNull(),
    /** `host:pid` of the process that built it, or 'ops' / an operator's name. */
    builtBy: text('built_by').notNull(),
  },
  (t) => [uniqueIndex('liability_roots_day').on(t.day)],
);

/**
 * The leaves of a published tree, in tree order (`position`), kept so a customer's path can be answered later: the
 * leaf id and its sums (whole minor units as decimal strings, in the tree's `assets` order).
 */
export const liabilityLeaves = pgTable(
  'liability_leaves',
  {
    rootId: integer('root_id')
      .notNull()
      .references(() => liabilityRoots.id),
    position: integer('position').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    leafId: text('leaf_id').notNull(),
    sums: jsonb('sums').$type<string[]>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.rootId, t.position] }), uniqueIndex('liability_leaves_user').on(t.rootId, t.userId)],
);

/**
 * The nodes of a published tree from level 10 up (one per 1,024 leaves, and the levels above to the root), kept so a
 * customer's path is their block of leaves hashed again plus these siblings: `level` (leaves are 0), `position` in the
 * level, the hash and the sums (whole minor units as decimal strings, in the tree's `assets` order).
 */
export const liabilityNodes = pgTable(
  'liability_nodes',
  {
    rootId: integer('root_id')
      .notNull()
      .references(() => liabilityRoots.id),
    level: integer('level').notNull(),
    position: integer('position').notNull(),
    hash: text('hash').notNull(),
    sums: jsonb('sums').$type<string[]>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.rootId, t.level, t.position] })],
);

/**
 * One row per closed account (domain/closure.ts): what the law makes us keep of how it was reached, and until when. The
 * phone and e-mail it held register again only from `contacts_free_at` (closure + CONTACT_REUSE_DAYS); the records
 * kept for the law (ledger, orders, identity certifications) are kept until `kept_until` (closure + RETENTION_YEARS).
 */
export const closedAccounts = pgTable(
  'closed_accounts',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id),
    /** The username, phone (E.164) and e-mail the account held when it was closed. */
    username: text('username').notNull(),
    phone: text('phone'),
    email: text('email'),
    closedAt: at('closed_at').notNull(),
    contactsFreeAt: at('contacts_free_at').notNull(),
    keptUntil: at('kept_until').notNull(),
  },
  (t) => [index('closed_accounts_phone_idx').on(t.phone), index('closed_accounts_email_idx').on(t.email)],
);

/**
 * The sign-in history (domain/login-history.ts; not the daily sign-in for points, `sign_ins`): every sign-in to an
 * account and every failed attempt against it (a known account's wrong password, authenticator code or passkey), kept
 * 90 days. `method` is 'password', 'passkey' or 'code' (the password with the authenticator code, or registering by a
 * sent code); `device` the browser and system read from the User-Agent ('Chrome, Android', '' when neither is known);
 * `address` the address as the customer is shown it, partly hidden (the full one is not kept); `country` an ISO 3166
 * code from the optional offline address-to-country table, null when unknown. `notice_day` (UTC 'YYYY-MM-DD') marks the
 * failed attempt that raised the day's security notice for its device: unique per account, device and day, so two at
 * once raise one.
 */
export const loginHistory = pgTable(
  'login_history',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    at: at('at').notNull(),
    succeeded: boolean('succeeded').notNull(),
    method: text('method').notNull(),
    device: text('device').notNull().default(''),
    address: text('address').notNull().default(''),
    country: text('country'),
    noticeDay: text('notice_day'),
  },
  (t) => [
    index('login_history_user_at').on(t.userId, t.at, t.id),
    index('login_history_at').on(t.at),
    uniqueIndex('login_history_one_notice_a_day')
      .on(t.userId, t.device, t.noticeDay)
      .where(sql`${t.noticeDay} is not null`),
  ],
);
