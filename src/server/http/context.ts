// What every handler receives: the database, the caller, the request language and a clock.
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/connection.ts';
import type { Translate } from '../i18n.ts';
import type { Locale } from '../../api-contract/constants.ts';
import type { CodeSender } from '../domain/code-sender.ts';
import type { Market } from '../market/market.ts';
import type { Changes } from '../db/changes.ts';
import type { CachedAnswers } from './cached-answers.ts';
import type { Clock } from '../domain/clock.ts';
import type { Caller, SignInPlace } from '../domain/sessions.ts';
import type { OperatorCaller } from '../domain/operators.ts';
import type { BuildInfo } from '../build-info.ts';
import type { ServiceSettings } from './settings.ts';
import type { ReceiptKeyRing } from '../domain/receipt-keys.ts';
import type { PreparedSecrets } from '../domain/accounts.ts';

/**
 * What the app is built on (http/app.ts) and every handler receives. Settings:
 * - earnTimeZone (EARN_TIMEZONE): where interest days start and end;
 * - payeeCoolingMs (PAYEE_COOLING_HOURS): how long a new bank card or wallet waits before withdrawals may go to it;
 * - sessionLimits (SESSION_IDLE_DAYS, SESSION_MAX_DAYS): how long sessions last;
 * - operatorConsole (CONSOLE_IDLE_MINUTES, FOUR_EYES_USDT): the console's session and four-eyes settings;
 * - reconcileEveryMs (RECONCILE_EVERY_SECONDS): how often the books' check runs (the system page says it).
 */
export interface Services extends ServiceSettings {
  db: Db;
  /** The database for calls declared read-only (db/connection.ts Database.reads): their handlers get it as `db`. */
  reads: Db;
  clock: Clock;
  sender: CodeSender;
  market: Market;
  /** The database's change notices: with them, reads are answered from memory between changes (cached-answers.ts);
   * null: every read goes to the database. */
  changes: Changes | null;
  /** TWO_FACTOR_KEY or the data folder's key file (domain/two-factor-key.ts); tests use the process's own. */
  twoFactorKey: Buffer;
  /** RECEIPT_SIGNING_KEYS or the data folder's key file (domain/receipt-keys.ts); tests use the process's own. */
  receiptKeys: ReceiptKeyRing;
  /** The version and build this process runs (build-info.ts). */
  build: BuildInfo;
}

export interface HandlerContext extends Services {
  /** Set on endpoints declared with `auth` (the default). */
  caller: Caller;
  /** Set on console endpoints (declared with `console`): the operator calling, of the role the endpoint needs. */
  operator: OperatorCaller;
  /** Answers cached in memory; a handler that ends sessions drops them here too (its own notice may come after its
   * reply). */
  cache: CachedAnswers;
  locale: Locale;
  t: Translate;
  ip: string;
  request: FastifyRequest;
  /** Secrets verified and new ones hashed by the route's `ahead` work before the call's transaction (handle.ts
   * RouteOptions; http/secrets-ahead.ts). */
  secrets?: PreparedSecrets;
}

/** Where the request signing in comes from: its User-Agent and address (the domain bounds and masks them). */
export function signInPlace({ request, ip }: Pick<HandlerContext, 'request' | 'ip'>): SignInPlace {
  const userAgent = request.headers['user-agent'];
  return { userAgent: typeof userAgent === 'string' ? userAgent : '', ip };
}
