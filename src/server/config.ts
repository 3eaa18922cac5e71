// Server configuration, from the environment only, read through config-schema.ts (which declares every variable;
// CONFIGURATION.md beside this file lists them). Here the variables become the settings the server runs with.
import { join } from 'node:path';
import type { SheddingLimits } from './http/load-shedding.ts';
import type { DatabaseTarget } from './db/connection.ts';
import type { Exchange } from './market/exchanges/exchange.ts';
import { configuredExchanges } from './market/exchanges/exchanges.ts';
import type { SessionLimits } from './domain/sessions.ts';
import type { ConsoleSettings } from './domain/operators.ts';
import type { ReceiptKeyEntry } from './domain/receipt-keys.ts';
import { DELIVERY_VARIABLES, deliveryConfig, type DeliveryConfig } from './delivery/settings.ts';
import { endpointVariables, readVariables } from './config-schema.ts';

/**
 * The settings the server runs with. Each field names the variable(s) it comes from; config-schema.ts declares what
 * each variable means, its units and what unset stands for.
 */
export interface ServerConfig {
  /** PORT. */
  port: number;
  /** HOST. */
  host: string;
  /** DATABASE_URL, else the embedded database in DATA_DIR. */
  database: DatabaseTarget;
  /** NODE_ENV=production. */
  production: boolean;
  /** WEB_ROOT: the folder of the built PWA served at `/`; null: the API only. */
  webRoot: string | null;
  /** CORS_ORIGINS: browser origins allowed to call the API from another host. */
  corsOrigins: string[];
  /** TRUST_PROXY_HOPS: proxy hops whose X-Forwarded-For is believed for the client address; 0: none. */
  trustProxyHops: number;
  /** SEED_DEMO. */
  seedDemo: boolean;
  /** AUTH_RATE_LIMIT: requests a minute per address on login, register and code calls. */
  authRateLimitPerMinute: number;
  /** RATE_LIMIT_ADDRESS: requests a minute per address of callers without a valid token. */
  addressRateLimitPerMinute: number;
  /** RATE_LIMIT_ACCOUNT: requests a minute per logged-in account, whatever its address. */
  accountRateLimitPerMinute: number;
  /** CALLS_AT_ONCE, CALLS_WAITING, CALL_WAIT_MS (http/load-shedding.ts); false (CALLS_AT_ONCE=0): no limit. */
  shedding: SheddingLimits | false;
  /** LOG_LEVEL. */
  logLevel: string;
  /** PRICE_FEED: `simulator` or `index`. */
  priceFeed: string;
  /** INDEX_EXCHANGES, each at its EXCHANGE_<NAME>_WS / _REST: the exchanges PRICE_FEED=index reads. */
  indexExchanges: Exchange[];
  /** FEED_SEED: the simulator's seed, tests and replays only; null: a cryptographic source. */
  feedSeed: number | null;
  /** CLOCK_SPEED: > 1 runs the server's clock faster (test servers). */
  clockSpeed: number;
  /** CLOCK_ORIGIN (ms since 1970 UTC), test servers: where the accelerated clock starts; null: at the start. */
  clockOrigin: number | null;
  /** FEED_INTERVAL_MS, test servers: real ms between market steps; null: 1000 / clockSpeed, at least 20. */
  feedIntervalMs: number | null;
  /** TLS_CERT / TLS_KEY: PEM files, both or neither; with them the server speaks https itself. */
  tls: { certFile: string; keyFile: string } | null;
  /** WORKERS: server processes on one port (node:cluster); more than 1 needs PostgreSQL. */
  workers: number;
  /** METRICS_TOKEN: the bearer token of GET /metrics; null: there is no /metrics. */
  metricsToken: string | null;
  /** SHUTDOWN_DRAIN_MS: how long a stopping process answers /readyz 503 while it still serves. */
  shutdownDrainMs: number;
  /** EARN_TIMEZONE: where an interest day starts and ends. */
  earnTimeZone: string;
  /** PAYEE_COOLING_HOURS in ms: how long a new bank card or wallet waits before withdrawals may go to it. */
  payeeCoolingMs: number;
  /** SESSION_IDLE_DAYS and SESSION_MAX_DAYS in ms. */
  sessionLimits: SessionLimits;
  /** TWO_FACTOR_KEY: the key two-factor secrets are encrypted with; null: the key file below (made on first start). */
  twoFactorKey: Buffer | null;
  /** DATA_DIR/two-factor.key, on PostgreSQL too: every process of this machine reads the same one. */
  twoFactorKeyFile: string;
  /** RECEIPT_SIGNING_KEYS: the keys settlement receipts are signed with; null: the key file below (made on first
   * start). */
  receiptKeys: ReceiptKeyEntry[] | null;
  /** DATA_DIR/receipt-signing.keys, on PostgreSQL too: every process of this machine reads the same one. */
  receiptKeysFile: string;
  /** SMTP_*, SMS_PROVIDER and its settings, DELIVERY_RETRY_SECONDS (delivery/settings.ts). */
  delivery: DeliveryConfig;
  /** PUSH_SERVICE_HOSTS: where push subscriptions may point (`*.` for any subdomain), in lower case. */
  pushServiceHosts: string[];
  /** WEBAUTHN_RP_ID and WEBAUTHN_ORIGINS: where passkeys belong; id null: the host each page is opened from. */
  relyingParty: { id: string | null; origins: string[] };
  /** LOGIN_COUNTRY_FILE: the address-to-country table of the sign-in history; null: every place unknown. */
  loginCountryFile: string | null;
  /** CONSOLE_IDLE_MINUTES in ms, FOUR_EYES_USDT, REWARD_MAX_USDT and REWARD_MAX_POINTS. */
  operatorConsole: ConsoleSettings;
  /** RECONCILE_EVERY_SECONDS in ms: how often the books' check runs, across all processes (jobs/reconciliation.ts). */
  reconcileEveryMs: number;
  /** VAPID_SUBJECT: how a push service reaches the operator (a mailto: or https: address, RFC 8292). */
  vapidSubject: string;
  /** BUILD_ID: the build this process reports; null: the id the build wrote beside the app, else 'development'. */
  buildId: string | null;
}

/**
 * The settings of the environment `env` (the process's by default). Throws an Error, one line per wrong value, when a
 * variable cannot be used or settings that go together are half given (SMTP, an SMS provider, the index's exchanges).
 */
export function loadConfig(env: Readonly<Record<string, string | undefined>> = process.env): ServerConfig {
  const value = readVariables(env);
  const dataDir = value.DATA_DIR;
  return {
    port: value.PORT,
    host: value.HOST,
    database: value.DATABASE_URL ? { kind: 'postgres', url: value.DATABASE_URL } : { kind: 'pglite', dataDir },
    production: value.NODE_ENV === 'production',
    webRoot: value.WEB_ROOT,
    corsOrigins: value.CORS_ORIGINS,
    trustProxyHops: value.TRUST_PROXY_HOPS,
    seedDemo: value.SEED_DEMO,
    authRateLimitPerMinute: value.AUTH_RATE_LIMIT,
    addressRateLimitPerMinute: value.RATE_LIMIT_ADDRESS,
    accountRateLimitPerMinute: value.RATE_LIMIT_ACCOUNT,
    // CALLS_AT_ONCE=0: no limit.
    shedding:
      value.CALLS_AT_ONCE === 0
        ? false
        : { maxInFlight: value.CALLS_AT_ONCE, maxWaiting: value.CALLS_WAITING, maxWaitMs: value.CALL_WAIT_MS },
    logLevel: value.LOG_LEVEL,
    priceFeed: value.PRICE_FEED,
    indexExchanges: configuredExchanges(value.INDEX_EXCHANGES, (name) => {
      const variables = endpointVariables(name);
      return { socket: value[variables.socket], rest: value[variables.rest] };
    }),
    feedSeed: value.FEED_SEED,
    clockSpeed: value.CLOCK_SPEED,
    clockOrigin: value.CLOCK_ORIGIN,
    feedIntervalMs: value.FEED_INTERVAL_MS,
    tls: tls(value.TLS_CERT, value.TLS_KEY),
    workers: value.WORKERS,
    metricsToken: value.METRICS_TOKEN,
    shutdownDrainMs: value.SHUTDOWN_DRAIN_MS,
    earnTimeZone: value.EARN_TIMEZONE,
    payeeCoolingMs: value.PAYEE_COOLING_HOURS,
    sessionLimits: { idleMs: value.SESSION_IDLE_DAYS, maxMs: value.SESSION_MAX_DAYS },
    twoFactorKey: value.TWO_FACTOR_KEY,
    twoFactorKeyFile: join(dataDir, 'two-factor.key'),
    receiptKeys: value.RECEIPT_SIGNING_KEYS,
    receiptKeysFile: join(dataDir, 'receipt-signing.keys'),
    delivery: deliveryConfig(Object.fromEntries(DELIVERY_VARIABLES.map((name) => [name, value[name]]))),
    relyingParty: { id: value.WEBAUTHN_RP_ID, origins: value.WEBAUTHN_ORIGINS },
    loginCountryFile: value.LOGIN_COUNTRY_FILE,
    pushServiceHosts: value.PUSH_SERVICE_HOSTS,
    operatorConsole: {
      idleMs: value.CONSOLE_IDLE_MINUTES,
      fourEyesUsdt: value.FOUR_EYES_USDT,
      rewardCaps: { USDT: value.REWARD_MAX_USDT, POINT: value.REWARD_MAX_POINTS },
    },
    reconcileEveryMs: value.RECONCILE_EVERY_SECONDS,
    vapidSubject: value.VAPID_SUBJECT,
    buildId: value.BUILD_ID,
  };
}

/** TLS_CERT and TLS_KEY go together: one without the other stops the start rather than serving plain http unasked. */
function tls(certFile: string | null, keyFile: string | null): ServerConfig['tls'] {
  if (certFile && keyFile) return { certFile, keyFile };
  if (certFile || keyFile)
    throw new Error(
      `${certFile ? 'TLS_CERT' : 'TLS_KEY'} is set but ${certFile ? 'TLS_KEY' : 'TLS_CERT'} is not: set both for https, neither for plain http.`,
    );
  return null;
}
