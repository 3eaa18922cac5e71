// Every environment variable the server and the build read, declared once: its kind, what unset stands for and what it
// means. config.ts reads the environment through this list only; `npm run config:docs` writes CONFIGURATION.md from it
// (a unit test fails when the page or a read is out of step). A variable set to an empty value counts as unset.
import { DEFAULT_EARN_TIMEZONE } from '../api-contract/earn-days.ts';
import { DEFAULT_RETRY_SECONDS } from './domain/delivery.ts';
import { DEFAULT_TWILIO_API_BASE, DEFAULT_WEBHOOK_METHOD, DEFAULT_WEBHOOK_TEMPLATE } from './delivery/settings.ts';
import { DEFAULT_CONSOLE_SETTINGS } from './domain/operators.ts';
import { DEFAULT_PAYEE_COOLING_MS } from './domain/payouts.ts';
import { DEFAULT_PUSH_SERVICE_HOSTS } from './domain/push-subscriptions.ts';
import { DEFAULT_SESSION_LIMITS } from './domain/sessions.ts';
import { DEFAULT_SHEDDING } from './http/load-shedding.ts';
import { DEFAULT_RECONCILE_EVERY_MS } from './jobs/reconciliation.ts';
import {
  DEFAULT_INDEX_EXCHANGES,
  EXCHANGE_NAMES,
  publicEndpoints,
  type ExchangeName,
} from './market/exchanges/exchanges.ts';
import { PRICE_FEEDS } from './market/feeds.ts';
import * as kinds from './config-values.ts';
import type { Kind } from './config-values.ts';

/** The sections of the configuration page, in its order. */
export const GROUPS = [
  'Serving',
  'Database',
  'Limits',
  'Prices and the clock',
  'Accounts and money',
  'Messages',
  'Operators and monitoring',
  'Build',
] as const;

export type Group = (typeof GROUPS)[number];

/** Who reads a variable: the server when it starts (its operator command too), or the build (vite.config.ts). */
export type Reader = 'server' | 'build' | 'server and build';

/** One environment variable: how it is read and what the configuration page says of it. */
export interface Variable<T> {
  group: Group;
  /** What it sets, in one sentence with its units. */
  meaning: string;
  /** The kind of value it takes, as the page names it. */
  type: string;
  /** What unset stands for, as the page shows it: a value in backticks, or words where no value stands for it. */
  default: string;
  readBy: Reader;
  /** Its value from the variable as set (undefined when unset); throws an Error naming it on a value it cannot use. */
  read(raw: string | undefined, name: string): T;
}

/** The value as set, or undefined when unset or empty (blanks around a value are dropped). */
const given = (raw: string | undefined) => (raw === undefined || raw.trim() === '' ? undefined : raw.trim());

/**
 * A variable for which a value stands when it is unset: `default`, read like any value set (one default, shown on the
 * page as it is used). `empty`: what a variable set to the empty value means, where that differs from unset.
 */
function setting<T, E = never>(spec: {
  group: Group;
  kind: Kind<T>;
  default: string;
  meaning: string;
  readBy?: Reader;
  empty?: { value: E; means: string };
}): Variable<T | E> {
  const { group, kind, meaning, readBy = 'server', empty } = spec;
  return {
    group,
    meaning: empty ? `${meaning}; set empty, ${empty.means}` : meaning,
    type: kind.type,
    default: `\`${spec.default}\``,
    readBy,
    read(raw, name) {
      if (empty && raw === '') return empty.value;
      return kind.read(given(raw) ?? spec.default, name);
    },
  };
}

/** A variable no value stands for when unset: `unset` says in words what happens then, and `absent` is read. */
function optional<T, A = null>(spec: {
  group: Group;
  kind: Kind<T>;
  unset: string;
  meaning: string;
  readBy?: Reader;
  absent?: A;
}): Variable<T | A> {
  const { group, kind, meaning, readBy = 'server' } = spec;
  const absent = ('absent' in spec ? spec.absent : null) as A;
  return {
    group,
    meaning,
    type: kind.type,
    default: spec.unset,
    readBy,
    read(raw, name) {
      const value = given(raw);
      return value === undefined ? absent : kind.read(value, name);
    },
  };
}

/** A value passed on as written, checked by the module it configures (with the variables it goes with): `type` for the
 * page. */
const checkedBy = (type: string): Kind<string> => ({ type, read: (value) => value });

/** A URL of one of `schemes` ('https', 'wss'…). */
const url = (...schemes: string[]): Kind<string> => ({
  type: `${schemes.join(' or ')} URL`,
  read(value, name) {
    if (!schemes.some((scheme) => value.startsWith(`${scheme}://`)))
      throw new Error(`${name}=${value} is not a ${schemes.join(' or ')} URL.`);
    return value;
  },
});

/** EXCHANGE_<NAME>_WS / _REST of every exchange the index can read: another host for it, the public one unset. */
function exchangeEndpointVariables() {
  const variables: Partial<Record<EndpointVariable, Variable<string>>> = {};
  for (const name of EXCHANGE_NAMES) {
    const upper = name.toUpperCase() as Uppercase<ExchangeName>;
    const { socket, rest } = publicEndpoints(name);
    variables[`EXCHANGE_${upper}_WS`] = setting({
      group: 'Prices and the clock',
      kind: url('wss', 'ws'),
      default: socket,
      meaning: `\`PRICE_FEED=index\`: where ${name}'s WebSocket stream is reached (a regional host, the tests' local stand-in)`,
    });
    variables[`EXCHANGE_${upper}_REST`] = setting({
      group: 'Prices and the clock',
      kind: url('https', 'http'),
      default: rest,
      meaning: `\`PRICE_FEED=index\`: where ${name}'s REST API is reached (its candles fill the charts' gaps)`,
    });
  }
  return variables as Record<EndpointVariable, Variable<string>>;
}

/** The name of an exchange's endpoint variable. */
export type EndpointVariable = `EXCHANGE_${Uppercase<ExchangeName>}_${'WS' | 'REST'}`;

/** The variable names of one exchange's endpoints. */
export const endpointVariables = (name: ExchangeName) => {
  const upper = name.toUpperCase() as Uppercase<ExchangeName>;
  return { socket: `EXCHANGE_${upper}_WS`, rest: `EXCHANGE_${upper}_REST` } as const;
};

const DAY_MS = 86_400_000;

/** Every variable, by name, in the page's order within each group. */
export const VARIABLES = {
  PORT: setting({
    group: 'Serving',
    kind: kinds.whole(0, 65_535),
    default: '8080',
    meaning: 'The TCP port the server listens on',
  }),
  HOST: setting({
    group: 'Serving',
    kind: kinds.text,
    default: '0.0.0.0',
    meaning:
      'The network interface the server listens on (`0.0.0.0`: every IPv4 one, so a phone on the LAN reaches it; `::`: ' +
      'every IPv4 and IPv6 one)',
  }),
  TLS_CERT: optional({
    group: 'Serving',
    kind: kinds.path,
    unset: 'plain http',
    meaning:
      'PEM certificate file; with `TLS_KEY` the server speaks https itself, HTTP/2 with HTTP/1.1 for clients without ' +
      'it (see [On a phone](OPERATIONS.md#on-a-phone))',
  }),
  TLS_KEY: optional({
    group: 'Serving',
    kind: kinds.path,
    unset: 'plain http',
    meaning: "PEM private key file of `TLS_CERT`'s certificate",
  }),
  NODE_ENV: optional({
    group: 'Serving',
    kind: kinds.text,
    unset: 'development',
    meaning:
      '`production` (set by `npm start`) marks the database as production for good: the operator command then ' +
      'refuses test balances there; any other value is development',
  }),
  WEB_ROOT: setting({
    group: 'Serving',
    kind: kinds.path,
    default: 'dist',
    meaning: 'The folder of the built PWA (and its operator console) served at `/`',
    empty: { value: null, means: 'only the API is served' },
  }),
  WORKERS: setting({
    group: 'Serving',
    kind: kinds.whole(1, Number.MAX_SAFE_INTEGER),
    default: '1',
    meaning: 'Server processes sharing one port on this machine (node:cluster); more than 1 needs `DATABASE_URL`',
  }),
  SHUTDOWN_DRAIN_MS: setting({
    group: 'Serving',
    kind: kinds.drainMs,
    default: '2000',
    meaning:
      'On SIGTERM or SIGINT, how long in ms the process answers `/readyz` 503 while it still serves, before it closes',
  }),
  CORS_ORIGINS: optional({
    group: 'Serving',
    kind: kinds.list,
    unset: 'none',
    absent: [] as string[],
    meaning: 'Browser origins allowed to call the API from another host (a PWA built with `VITE_API_BASE`)',
  }),
  TRUST_PROXY_HOPS: setting({
    group: 'Serving',
    kind: kinds.whole(0, Number.MAX_SAFE_INTEGER),
    default: '0',
    meaning:
      'Proxies in front whose `X-Forwarded-For` (the client address of the per-address limits), ' +
      '`X-Forwarded-Proto` (https) and `X-Request-Id` are believed',
  }),
  DATA_DIR: setting({
    group: 'Database',
    kind: kinds.path,
    default: 'data',
    meaning:
      "Folder of the embedded database (`pglite/`, its lock file, the operator command's socket) and of " +
      '`two-factor.key`; the key file is used on PostgreSQL too',
  }),
  DATABASE_URL: optional({
    group: 'Database',
    kind: kinds.text,
    unset: 'the embedded database (PGlite) in `DATA_DIR`',
    meaning: 'PostgreSQL connection string (`postgres://user:password@host:5432/name`); when set, PGlite is not used',
  }),
  SEED_DEMO: setting({
    group: 'Database',
    kind: kinds.flag,
    default: 'true',
    meaning: 'Create the demo account with its balances, the app configuration and the slides on an empty database',
  }),
  AUTH_RATE_LIMIT: setting({
    group: 'Limits',
    kind: kinds.whole(1, Number.MAX_SAFE_INTEGER, 'requests a minute'),
    default: '60',
    meaning:
      'Requests a minute one address may make of the login, register, passkey, console login and code calls ' +
      '(wrong passwords: see [Login guessing](domain/SECURITY.md#login-guessing))',
  }),
  RATE_LIMIT_ADDRESS: setting({
    group: 'Limits',
    kind: kinds.whole(1, Number.MAX_SAFE_INTEGER, 'requests a minute'),
    default: '600',
    meaning: 'API requests a minute from one address by callers without a valid token',
  }),
  RATE_LIMIT_ACCOUNT: setting({
    group: 'Limits',
    kind: kinds.whole(1, Number.MAX_SAFE_INTEGER, 'requests a minute'),
    default: '600',
    meaning:
      'API requests a minute by one logged-in account, whatever its address (customers behind one carrier address ' +
      "don't share a budget)",
  }),
  CALLS_AT_ONCE: setting({
    group: 'Limits',
    kind: kinds.wholeElse(DEFAULT_SHEDDING.maxInFlight, 'calls'),
    default: String(DEFAULT_SHEDDING.maxInFlight),
    meaning:
      'API calls one process works on at once; the next wait their turn (`0`: no limit; see [More calls than a process serves](http/README.md#more-calls-than-a-process-serves))',
  }),
  CALLS_WAITING: setting({
    group: 'Limits',
    kind: kinds.wholeElse(DEFAULT_SHEDDING.maxWaiting, 'calls'),
    default: String(DEFAULT_SHEDDING.maxWaiting),
    meaning: 'API calls that may wait for a turn; one more is answered busy (503, `Retry-After`) at once',
  }),
  CALL_WAIT_MS: setting({
    group: 'Limits',
    kind: kinds.wholeElse(DEFAULT_SHEDDING.maxWaitMs, 'ms'),
    default: String(DEFAULT_SHEDDING.maxWaitMs),
    meaning: 'The longest a call waits for its turn, in ms, before it is answered busy',
  }),
  PRICE_FEED: setting({
    group: 'Prices and the clock',
    kind: kinds.oneOf(...PRICE_FEEDS),
    default: 'simulator',
    meaning:
      "The market's price feed: `simulator` needs no network and its prices are labelled Simulated; `index` is the " +
      'median of public exchanges (see [Prices from the market](market/README.md#prices-from-the-market))',
  }),
  INDEX_EXCHANGES: setting({
    group: 'Prices and the clock',
    kind: checkedBy('comma-separated names'),
    default: DEFAULT_INDEX_EXCHANGES,
    meaning: `\`PRICE_FEED=index\`: the exchanges it reads, at least three of ${EXCHANGE_NAMES.join(', ')}`,
  }),
  ...exchangeEndpointVariables(),
  FEED_SEED: optional({
    group: 'Prices and the clock',
    kind: kinds.seed,
    unset: 'a cryptographic random source',
    meaning:
      'Tests and replays only: the simulator replays this seed, so whoever knows it can compute every price (the ' +
      'start log says so and the app labels prices "Simulated · replay")',
  }),
  CLOCK_SPEED: setting({
    group: 'Prices and the clock',
    kind: kinds.speed,
    default: '1',
    meaning:
      "Test servers only: how many times faster than real time the server's clock runs (the end-to-end tests use " +
      '20 so options expire in seconds)',
  }),
  CLOCK_ORIGIN: optional({
    group: 'Prices and the clock',
    kind: kinds.epochMs,
    unset: 'the start of the process',
    meaning:
      'Test servers only: where the accelerated clock starts, in ms since 1970-01-01 UTC, so several processes ' +
      'share one market time',
  }),
  FEED_INTERVAL_MS: optional({
    group: 'Prices and the clock',
    kind: kinds.whole(20, Number.MAX_SAFE_INTEGER, 'ms'),
    unset: '1000 / `CLOCK_SPEED`, at least 20',
    meaning:
      'Test servers only: real ms between market steps (the earn end-to-end servers, whose days pass in seconds, ' +
      'use 500)',
  }),
  EARN_TIMEZONE: setting({
    group: 'Accounts and money',
    kind: kinds.timeZone,
    default: DEFAULT_EARN_TIMEZONE,
    meaning: "Where an interest day starts and ends (liquidity interest, lock-up income) and the daily check-in's day",
  }),
  PAYEE_COOLING_HOURS: setting({
    group: 'Accounts and money',
    kind: kinds.hoursAsMs,
    default: String(DEFAULT_PAYEE_COOLING_MS / 3_600_000),
    meaning:
      'Hours a newly added bank card or wallet waits before withdrawals may go to it (the customer gets a station ' +
      'message and sees the countdown; deleting is immediate); `0` turns the wait off. A payee keeps the wait it was ' +
      'given when saved: a change applies to payees saved after it',
  }),
  SESSION_IDLE_DAYS: setting({
    group: 'Accounts and money',
    kind: kinds.daysAsMs(DEFAULT_SESSION_LIMITS.idleMs / DAY_MS),
    default: String(DEFAULT_SESSION_LIMITS.idleMs / DAY_MS),
    meaning: 'Days a session may go unused before it ends (the customer logs in again)',
  }),
  SESSION_MAX_DAYS: setting({
    group: 'Accounts and money',
    kind: kinds.daysAsMs(DEFAULT_SESSION_LIMITS.maxMs / DAY_MS),
    default: String(DEFAULT_SESSION_LIMITS.maxMs / DAY_MS),
    meaning: 'Days after its sign-in a session ends, however much it is used',
  }),
  TWO_FACTOR_KEY: optional({
    group: 'Accounts and money',
    kind: kinds.twoFactorKey,
    unset: '`DATA_DIR/two-factor.key`, made on the first start',
    meaning:
      'The key two-factor secrets are encrypted and recovery codes digested with (e.g. `openssl rand -hex 32`); ' +
      'several machines need it set alike, and without it no code can be checked: keep it with, but apart from, ' +
      'the backups',
  }),
  RECEIPT_SIGNING_KEYS: optional({
    group: 'Accounts and money',
    kind: kinds.receiptKeys,
    unset: '`DATA_DIR/receipt-signing.keys`, made on the first start',
    meaning:
      'The Ed25519 keys settlement receipts are signed with, each `<64 hex digits>@<ISO time it starts signing>` ' +
      '(e.g. `$(openssl rand -hex 32)@2026-11-22T08:00:00Z`), comma separated: the latest started one signs, all are ' +
      'published at `/.well-known/receipt-keys.json`; several machines need it set alike, and a rotation adds a key ' +
      '(keep the old ones: their receipts verify by them); a key that may have leaked is revoked by writing ' +
      '` revoked <ISO time>` after it, with a new key starting now',
  }),
  LOGIN_COUNTRY_FILE: optional({
    group: 'Accounts and money',
    kind: kinds.path,
    unset: 'every place unknown',
    meaning:
      'A CSV of address ranges and countries (`first,last,CC` a line, IPv4 or IPv6, e.g. an "IP to Country Lite" ' +
      'file) that gives the sign-in history its rough place; read once at start, never an outside service',
  }),
  WEBAUTHN_RP_ID: optional({
    group: 'Accounts and money',
    kind: kinds.text,
    unset: "each request's own host",
    meaning:
      "The domain passkeys belong to (e.g. `app.example.com`); unset, a request's `Origin` must name the `Host` " +
      'it was sent to, or a `CORS_ORIGINS` entry; passkeys need https or `localhost`',
  }),
  WEBAUTHN_ORIGINS: optional({
    group: 'Accounts and money',
    kind: kinds.list,
    unset: '`https://` + the RP id',
    absent: [] as string[],
    meaning: 'With `WEBAUTHN_RP_ID`: the page origins allowed to use its passkeys',
  }),
  PUSH_SERVICE_HOSTS: setting({
    group: 'Messages',
    kind: kinds.hostList,
    default: DEFAULT_PUSH_SERVICE_HOSTS.join(','),
    meaning:
      "The push services a browser's subscription may point to (`*.` for any subdomain; port 443 alone unless an " +
      'entry names one, `host:port`); the server posts to no other address a customer names',
  }),
  VAPID_SUBJECT: setting({
    group: 'Messages',
    kind: kinds.vapidSubject,
    default: 'mailto:operators@coinvest.invalid',
    meaning:
      'How a push service reaches the operator; set a real one in production (the VAPID key pair itself is made on ' +
      'the first start and kept in the database)',
  }),
  SMTP_URL: optional({
    group: 'Messages',
    kind: checkedBy('`smtps://` or `smtp://` URL'),
    unset: 'e-mails go to the server log',
    absent: undefined,
    meaning:
      'The SMTP server e-mail goes through, credentials included (`smtps://user:password@mail.example.com` for TLS, ' +
      '`smtp://…:587` for STARTTLS; see [Codes by e-mail and SMS](delivery/README.md#codes-by-e-mail-and-sms))',
  }),
  SMTP_FROM: optional({
    group: 'Messages',
    kind: checkedBy('e-mail address, a name before it allowed'),
    unset: 'none (needed with `SMTP_URL`)',
    absent: undefined,
    meaning: 'The sender of e-mails (`Coinvest <no-reply@example.com>`)',
  }),
  SMS_PROVIDER: optional({
    group: 'Messages',
    kind: checkedBy('`twilio` or `webhook`'),
    unset: 'SMS go to the server log',
    absent: undefined,
    meaning: 'Who sends SMS: `twilio` (the `TWILIO_` variables) or `webhook` (the `SMS_WEBHOOK_` variables)',
  }),
  TWILIO_ACCOUNT_SID: optional({
    group: 'Messages',
    kind: kinds.text,
    unset: 'none (needed by `twilio`)',
    absent: undefined,
    meaning: "`SMS_PROVIDER=twilio`: the Twilio account's SID",
  }),
  TWILIO_AUTH_TOKEN: optional({
    group: 'Messages',
    kind: kinds.text,
    unset: 'none (needed by `twilio`)',
    absent: undefined,
    meaning: "`SMS_PROVIDER=twilio`: the Twilio account's auth token",
  }),
  TWILIO_FROM: optional({
    group: 'Messages',
    kind: kinds.text,
    unset: 'none (needed by `twilio`)',
    absent: undefined,
    meaning: '`SMS_PROVIDER=twilio`: the sending number (E.164) or messaging service',
  }),
  TWILIO_API_BASE: optional({
    group: 'Messages',
    kind: checkedBy('http(s) URL'),
    unset: `\`${DEFAULT_TWILIO_API_BASE}\``,
    absent: undefined,
    meaning: "`SMS_PROVIDER=twilio`: another base of Twilio's API (the tests' local stand-in)",
  }),
  SMS_WEBHOOK_URL: optional({
    group: 'Messages',
    kind: checkedBy('http(s) URL'),
    unset: 'none (needed by `webhook`)',
    absent: undefined,
    meaning: '`SMS_PROVIDER=webhook`: the http(s) address called for each SMS; `{{to}}` and `{{body}}` are filled in',
  }),
  SMS_WEBHOOK_METHOD: optional({
    group: 'Messages',
    kind: checkedBy('`GET`, `POST` or `PUT`'),
    unset: `\`${DEFAULT_WEBHOOK_METHOD}\``,
    absent: undefined,
    meaning: '`SMS_PROVIDER=webhook`: `GET`, `POST` or `PUT`',
  }),
  SMS_WEBHOOK_TEMPLATE: optional({
    group: 'Messages',
    kind: checkedBy('text'),
    unset: `\`${DEFAULT_WEBHOOK_TEMPLATE}\``,
    absent: undefined,
    meaning: '`SMS_PROVIDER=webhook`: the body sent, with `{{to}}` and `{{body}}` filled in',
  }),
  SMS_WEBHOOK_CONTENT_TYPE: optional({
    group: 'Messages',
    kind: checkedBy('media type'),
    unset: 'JSON for a template starting with `{`, else a form',
    absent: undefined,
    meaning: "`SMS_PROVIDER=webhook`: the body's content type",
  }),
  SMS_WEBHOOK_HEADERS: optional({
    group: 'Messages',
    kind: checkedBy('JSON object of strings'),
    unset: 'none',
    absent: undefined,
    meaning: '`SMS_PROVIDER=webhook`: more request headers (an API key, say)',
  }),
  DELIVERY_RETRY_SECONDS: setting({
    group: 'Messages',
    kind: checkedBy('comma-separated seconds'),
    default: DEFAULT_RETRY_SECONDS.join(','),
    meaning: 'Seconds between the tries of an outgoing message; one more try than waits, then it has failed',
  }),
  CONSOLE_IDLE_MINUTES: setting({
    group: 'Operators and monitoring',
    kind: kinds.consoleMinutesAsMs,
    default: String(DEFAULT_CONSOLE_SETTINGS.idleMs / 60_000),
    meaning: 'Minutes an operator console session may go unused before it ends',
  }),
  FOUR_EYES_USDT: setting({
    group: 'Operators and monitoring',
    kind: kinds.usdt,
    default: DEFAULT_CONSOLE_SETTINGS.fourEyesUsdt,
    meaning:
      'A withdrawal or a recharge worth more than this many USDT (a coin at its latest recorded price) is paid out ' +
      'or credited only on the approvals of two different operators; `0`: every one',
  }),
  REWARD_MAX_USDT: setting({
    group: 'Operators and monitoring',
    kind: kinds.rewardCap('USDT'),
    default: DEFAULT_CONSOLE_SETTINGS.rewardCaps.USDT,
    meaning:
      'The most USDT a reward an operator sets may pay one customer (a welfare task, the referral reward per friend, ' +
      'a blind box prize: one in a coin at its latest recorded price); a higher one is refused. Such rewards are ' +
      'paid without review to every customer who qualifies',
  }),
  REWARD_MAX_POINTS: setting({
    group: 'Operators and monitoring',
    kind: kinds.rewardCap('points'),
    default: DEFAULT_CONSOLE_SETTINGS.rewardCaps.POINT,
    meaning:
      'The most points a reward an operator sets may pay one customer (a welfare task, a blind box prize, a step of ' +
      'the daily check-in ladder); a higher one is refused',
  }),
  RECONCILE_EVERY_SECONDS: setting({
    group: 'Operators and monitoring',
    kind: kinds.reconcileSecondsAsMs,
    default: String(DEFAULT_RECONCILE_EVERY_MS / 1000),
    meaning:
      'Seconds between checks of the books (balances against the ledger, frozen amounts against reserves, option ' +
      'payouts), one run per interval across all processes',
  }),
  METRICS_TOKEN: optional({
    group: 'Operators and monitoring',
    kind: kinds.text,
    unset: 'no `/metrics` (404)',
    meaning:
      'The bearer token of `GET /metrics` (Prometheus; see [Watching the server](observability/README.md#watching-the-server))',
  }),
  LOG_LEVEL: setting({
    group: 'Operators and monitoring',
    kind: kinds.oneOf('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'),
    default: 'info',
    meaning: "The server log's level: one line per answered request at `info`, its arrival too at `debug`",
  }),
  BUILD_ID: optional({
    group: 'Build',
    kind: kinds.text,
    unset: 'the time of the build; a server without a build says `development`',
    readBy: 'server and build',
    meaning:
      'Names the build: the app shows it at the foot of Mine and in `<html data-build>`; the server reports it on ' +
      "the console's system page",
  }),
  VITE_API_BASE: optional({
    group: 'Build',
    kind: kinds.text,
    unset: 'the same origin',
    readBy: 'build',
    meaning: 'The API host the PWA calls (`${VITE_API_BASE}/api`); that host needs the app in `CORS_ORIGINS`',
  }),
};

export type VariableName = keyof typeof VARIABLES;

/** Every variable's value as read: PORT a number, CORS_ORIGINS a list, an unset TLS_CERT null… */
export type VariableValues = {
  [N in VariableName]: (typeof VARIABLES)[N] extends Variable<infer T> ? T : never;
};

/**
 * Every declared variable of `env`, read. Throws one Error listing every value that cannot be used, one line each,
 * so a start with two typos is not corrected one failed start at a time.
 */
export function readVariables(env: Readonly<Record<string, string | undefined>>): VariableValues {
  const values: Record<string, unknown> = {};
  const wrong: string[] = [];
  for (const [name, variable] of Object.entries(VARIABLES) as [string, Variable<unknown>][]) {
    try {
      values[name] = variable.read(env[name], name);
    } catch (error) {
      wrong.push(error instanceof Error ? error.message : String(error));
    }
  }
  if (wrong.length) throw new Error(wrong.join('\n'));
  return values as VariableValues;
}
