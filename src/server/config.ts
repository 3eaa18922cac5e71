// Server configuration, from the environment only (README lists every variable).
import { DEFAULT_SHEDDING, type SheddingLimits } from './http/load-shedding.ts';
import { join, resolve } from 'node:path';
import type { DatabaseTarget } from './db/connection.ts';
import { DEFAULT_EARN_TIMEZONE } from '../contract/earn-days.ts';
import type { Exchange } from './market/exchanges/exchange.ts';
import { configuredExchanges } from './market/exchanges/exchanges.ts';
import { DEFAULT_PAYEE_COOLING_MS } from './domain/payouts.ts';
import { DEFAULT_SESSION_LIMITS, type SessionLimits } from './domain/sessions.ts';
import { parseTwoFactorKey } from './domain/two-factor-key.ts';
import { DEFAULT_CONSOLE_SETTINGS, type ConsoleSettings } from './domain/operators.ts';
import { deliveryConfig, type DeliveryConfig } from './delivery/settings.ts';
import { DEFAULT_PUSH_SERVICE_HOSTS } from './domain/push-subscriptions.ts';

export interface ServerConfig {
  port: number;
  host: string;
  database: DatabaseTarget;
  production: boolean;
  /** Folder of the built PWA served at `/` (production mode). */
  webRoot: string | null;
  /** Browser origins allowed to call the API from another host (VITE_API_BASE setups). */
  corsOrigins: string[];
  /** Proxy hops whose X-Forwarded-For is trusted for the client IP (rate limits); 0 = none. */
  trustProxyHops: number;
  /** Seed the demo account, config and slides on an empty database. */
  seedDemo: boolean;
  /** Requests per minute per IP on login, register and code calls. */
  authRateLimitPerMinute: number;
  /** Requests per minute per IP of callers without a valid token. */
  addressRateLimitPerMinute: number;
  /** Requests per minute per logged-in account, whatever its address. */
  accountRateLimitPerMinute: number;
  /** API calls a process works on at once, waits and the longest wait (http/load-shedding.ts); false: no limit. */
  shedding: SheddingLimits | false;
  logLevel: string;
  /** PRICE_FEED: the feed that prices the market: simulator (the default) or index (public exchanges). */
  priceFeed: string;
  /** PRICE_FEED=index: the exchanges it reads (INDEX_EXCHANGES, EXCHANGE_<NAME>_WS / _REST). */
  indexExchanges: Exchange[];
  /**
   * FEED_SEED: the simulator's seed, for tests and replays only (the run is predictable to whoever
   * knows it, and says so). Unset (the default): the simulator draws from a cryptographic source.
   */
  feedSeed: number | null;
  /** CLOCK_SPEED: > 1 runs the server's clock faster (end-to-end tests of expiring options). */
  clockSpeed: number;
  /**
   * CLOCK_ORIGIN (epoch ms), test servers only: where the accelerated clock starts, so several
   * processes started with the same origin and speed share one market clock. Default: process start.
   */
  clockOrigin: number | null;
  /**
   * FEED_INTERVAL_MS, test servers only: real milliseconds between market steps. Default 1000 /
   * CLOCK_SPEED (at least 20); a server whose days pass in seconds (earn tests) steps less often.
   */
  feedIntervalMs: number | null;
  /** TLS_CERT / TLS_KEY: PEM files; when both are set the server speaks https itself. */
  tls: { certFile: string; keyFile: string } | null;
  /** WORKERS: server processes on one port (node:cluster); more than 1 needs PostgreSQL. */
  workers: number;
  /** METRICS_TOKEN: GET /metrics answers a caller sending `Authorization: Bearer <it>`; unset, there is no /metrics. */
  metricsToken: string | null;
  /** SHUTDOWN_DRAIN_MS (default 2000): how long a stopping process answers /readyz 503 while it still serves, before it
   * closes. */
  shutdownDrainMs: number;
  /** EARN_TIMEZONE: where an interest day starts and ends (liquidity interest, lock-up income). */
  earnTimeZone: string;
  /** PAYEE_COOLING_HOURS (default 24; 0 turns it off): how long a new bank card or wallet waits before withdrawals may
   * go to it. */
  payeeCoolingMs: number;
  /** SESSION_IDLE_DAYS (default 30) and SESSION_MAX_DAYS (default 180): a session ends unused that long, and that long
   * after it began. */
  sessionLimits: SessionLimits;
  /** TWO_FACTOR_KEY: the key two-factor secrets are encrypted with; unset, the key file below is used (made on first
   * start). */
  twoFactorKey: Buffer | null;
  /** DATA_DIR/two-factor.key, on PostgreSQL too: every process of this machine reads the same one. */
  twoFactorKeyFile: string;
  /** How messages leave (SMTP_URL/SMTP_FROM, SMS_PROVIDER and its settings, DELIVERY_RETRY_SECONDS):
   * delivery/settings.ts. */
  delivery: DeliveryConfig;
  /** PUSH_SERVICE_HOSTS (comma separated, `*.` for any subdomain): where push subscriptions may point; unset, the major
   * browsers' push services. */
  pushServiceHosts: string[];
  /** WEBAUTHN_RP_ID (a domain, e.g. app.example.com) and WEBAUTHN_ORIGINS (its page origins, comma separated; default
   * https://RP_ID): where passkeys belong. Unset: the host each page is opened from. */
  relyingParty: { id: string | null; origins: string[] };
  /** CONSOLE_IDLE_MINUTES (default 30): a console session ends unused that long; FOUR_EYES_USDT (default 10000): above
   * it a withdrawal needs two approvers. */
  operatorConsole: ConsoleSettings;
  /**
   * RECONCILE_EVERY_SECONDS (default 300): how often the books' check runs, across all processes
   * (jobs/reconciliation.ts).
   */
  reconcileEveryMs: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const production = env.NODE_ENV === 'production';
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '0.0.0.0',
    database: env.DATABASE_URL
      ? { kind: 'postgres', url: env.DATABASE_URL }
      : { kind: 'pglite', dataDir: resolve(env.DATA_DIR ?? 'data') },
    production,
    webRoot: env.WEB_ROOT === '' ? null : resolve(env.WEB_ROOT ?? 'dist'),
    corsOrigins: listOf(env.CORS_ORIGINS),
    trustProxyHops: Number(env.TRUST_PROXY_HOPS ?? 0),
    seedDemo: env.SEED_DEMO !== 'false',
    authRateLimitPerMinute: Number(env.AUTH_RATE_LIMIT ?? 60),
    addressRateLimitPerMinute: Number(env.RATE_LIMIT_ADDRESS ?? 600),
    accountRateLimitPerMinute: Number(env.RATE_LIMIT_ACCOUNT ?? 600),
    shedding: shedding(env),
    logLevel: env.LOG_LEVEL ?? 'info',
    priceFeed: env.PRICE_FEED ?? 'simulator',
    indexExchanges: configuredExchanges(env),
    feedSeed: feedSeed(env.FEED_SEED),
    clockSpeed: Math.max(1, Number(env.CLOCK_SPEED ?? 1)),
    clockOrigin: env.CLOCK_ORIGIN && Number.isFinite(Number(env.CLOCK_ORIGIN)) ? Number(env.CLOCK_ORIGIN) : null,
    feedIntervalMs: Number(env.FEED_INTERVAL_MS) >= 20 ? Number(env.FEED_INTERVAL_MS) : null,
    tls: env.TLS_CERT && env.TLS_KEY ? { certFile: resolve(env.TLS_CERT), keyFile: resolve(env.TLS_KEY) } : null,
    workers: Math.max(1, Math.floor(Number(env.WORKERS ?? 1)) || 1),
    metricsToken: env.METRICS_TOKEN?.trim() || null,
    shutdownDrainMs: shutdownDrainMs(env.SHUTDOWN_DRAIN_MS),
    earnTimeZone: validTimeZone(env.EARN_TIMEZONE) ?? DEFAULT_EARN_TIMEZONE,
    payeeCoolingMs: payeeCoolingMs(env.PAYEE_COOLING_HOURS),
    sessionLimits: {
      idleMs: sessionDays('SESSION_IDLE_DAYS', env.SESSION_IDLE_DAYS, DEFAULT_SESSION_LIMITS.idleMs),
      maxMs: sessionDays('SESSION_MAX_DAYS', env.SESSION_MAX_DAYS, DEFAULT_SESSION_LIMITS.maxMs),
    },
    twoFactorKey: env.TWO_FACTOR_KEY?.trim() ? parseTwoFactorKey(env.TWO_FACTOR_KEY) : null,
    twoFactorKeyFile: join(resolve(env.DATA_DIR ?? 'data'), 'two-factor.key'),
    delivery: deliveryConfig(env),
    relyingParty: { id: env.WEBAUTHN_RP_ID?.trim() || null, origins: listOf(env.WEBAUTHN_ORIGINS) },
    pushServiceHosts: env.PUSH_SERVICE_HOSTS?.trim()
      ? listOf(env.PUSH_SERVICE_HOSTS).map((host) => host.toLowerCase())
      : DEFAULT_PUSH_SERVICE_HOSTS,
    operatorConsole: consoleSettings(env),
    reconcileEveryMs: reconcileEverySeconds(env.RECONCILE_EVERY_SECONDS) * 1000,
  };
}

/** CONSOLE_IDLE_MINUTES and FOUR_EYES_USDT: a typo must not make console sessions last for ever or turn four eyes off.
 * */
function consoleSettings(env: NodeJS.ProcessEnv): ConsoleSettings {
  const minutes = env.CONSOLE_IDLE_MINUTES?.trim()
    ? Number(env.CONSOLE_IDLE_MINUTES)
    : DEFAULT_CONSOLE_SETTINGS.idleMs / 60_000;
  if (!Number.isFinite(minutes) || minutes <= 0 || minutes > 24 * 60)
    throw new Error(
      `CONSOLE_IDLE_MINUTES=${env.CONSOLE_IDLE_MINUTES} is not a number of minutes from 1 to 1440 (unset: 30).`,
    );
  const fourEyesUsdt = env.FOUR_EYES_USDT?.trim() || DEFAULT_CONSOLE_SETTINGS.fourEyesUsdt;
  if (!/^\d{1,12}(\.\d{1,8})?$/.test(fourEyesUsdt))
    throw new Error(
      `FOUR_EYES_USDT=${env.FOUR_EYES_USDT} is not an amount of USDT (unset: 10000; 0: every withdrawal needs two approvers).`,
    );
  return { idleMs: Math.round(minutes * 60_000), fourEyesUsdt };
}

/** RECONCILE_EVERY_SECONDS: whole seconds from 1 to a day; a typo must not stop the books' check or run it without
 * pause. */
function reconcileEverySeconds(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 300;
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 86_400)
    throw new Error(`RECONCILE_EVERY_SECONDS=${value} is not a whole number of seconds from 1 to 86400 (unset: 300).`);
  return seconds;
}

/** SHUTDOWN_DRAIN_MS: unset is 2 s; a typo must not make a stop wait for ever or skip the drain silently. */
function shutdownDrainMs(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 2_000;
  const ms = Number(value);
  if (!Number.isFinite(ms) || ms < 0 || ms > 60_000)
    throw new Error(`SHUTDOWN_DRAIN_MS=${value} is not a number of milliseconds from 0 to 60000 (unset: 2000).`);
  return Math.round(ms);
}

/** A comma-separated setting's items. */
const listOf = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** PAYEE_COOLING_HOURS in ms: unset is the default 24 h; a typo must not silently turn the protection off. */
function payeeCoolingMs(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return DEFAULT_PAYEE_COOLING_MS;
  const hours = Number(value);
  if (!Number.isFinite(hours) || hours < 0)
    throw new Error(`PAYEE_COOLING_HOURS=${value} is not a number of hours (0 turns the cooling-off off; unset: 24).`);
  return Math.round(hours * 3_600_000);
}

/** SESSION_IDLE_DAYS / SESSION_MAX_DAYS in ms: unset is the default; a typo must not make sessions last for ever or end
 * at once. */
function sessionDays(name: string, value: string | undefined, fallbackMs: number): number {
  if (value === undefined || value.trim() === '') return fallbackMs;
  const days = Number(value);
  if (!Number.isFinite(days) || days <= 0)
    throw new Error(`${name}=${value} is not a number of days above 0 (unset: ${fallbackMs / 86_400_000}).`);
  return Math.round(days * 86_400_000);
}

/** FEED_SEED as a whole number, or null when unset; a typo must not silently fall back to something. */
function feedSeed(value: string | undefined): number | null {
  if (value === undefined || value.trim() === '') return null;
  const seed = Number(value);
  if (!Number.isSafeInteger(seed))
    throw new Error(`FEED_SEED=${value} is not a whole number (leave it unset for unpredictable prices).`);
  return seed;
}

/** An IANA zone the runtime knows ("Asia/Bangkok"), else undefined; a typo must not shift every interest day. */
function validTimeZone(zone: string | undefined): string | undefined {
  if (!zone) return undefined;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    throw new Error(`EARN_TIMEZONE=${zone} is not a time zone this runtime knows (e.g. Asia/Bangkok, UTC).`);
  }
}

/** CALLS_AT_ONCE (0: no limit), CALLS_WAITING and CALL_WAIT_MS, each a whole number, else its default. */
function shedding(env: NodeJS.ProcessEnv): SheddingLimits | false {
  const whole = (value: string | undefined, fallback: number) =>
    value !== undefined && /^\d+$/.test(value.trim()) ? Number(value) : fallback;
  const maxInFlight = whole(env.CALLS_AT_ONCE, DEFAULT_SHEDDING.maxInFlight);
  if (maxInFlight === 0) return false;
  return {
    maxInFlight,
    maxWaiting: whole(env.CALLS_WAITING, DEFAULT_SHEDDING.maxWaiting),
    maxWaitMs: whole(env.CALL_WAIT_MS, DEFAULT_SHEDDING.maxWaitMs),
  };
}
