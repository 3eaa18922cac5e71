// One schema for PGlite and PostgreSQL; migrations are generated from it by drizzle-kit.
import { sql } from 'drizzle-orm';
import {
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
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [check('users_recharge_total_nonnegative', sql`${t.rechargeTotal} >= 0`)],
);

/** Session tokens are stored as SHA-256 hashes; revoking sets revoked_at. */
export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: at('created_at').notNull().defaultNow(),
    revokedAt: at('revoked_at'),
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

/** What the default code sender "sent": read by the operator command and by tests. */
export const outbox = pgTable('outbox', {
  id: serial('id').primaryKey(),
  channel: text('channel').notNull(),
  target: text('target').notNull(),
  body: text('body').notNull(),
  createdAt: at('created_at').notNull().defaultNow(),
});

/** Counters for login and code limits, shared by every server process. */
export const attemptCounters = pgTable('attempt_counters', {
  key: text('key').primaryKey(),
  windowStart: at('window_start').notNull(),
  count: integer('count').notNull(),
});

/** A write carrying an Idempotency-Key is applied once; its answer is replayed. */
export const idempotencyKeys = pgTable('idempotency_keys', {
  key: text('key').primaryKey(),
  fingerprint: text('fingerprint').notNull(),
  response: jsonb('response'),
  createdAt: at('created_at').notNull().defaultNow(),
});

export const uploads = pgTable('uploads', {
  id: text('id').primaryKey(),
  userId: integer('user_id').notNull().references(() => users.id),
  mime: text('mime').notNull(),
  bytes: bytea('bytes').notNull(),
  createdAt: at('created_at').notNull().defaultNow(),
});

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
