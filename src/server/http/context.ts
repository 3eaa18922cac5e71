// What every handler receives: the database, the caller, the request language and a clock.
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/connection.ts';
import type { Translate } from '../i18n.ts';
import type { Locale } from '../../contract/constants.ts';
import type { CodeSender } from '../domain/code-sender.ts';
import type { Market } from '../market/market.ts';
import type { Changes } from '../db/changes.ts';
import type { KeptAnswers } from './kept-answers.ts';
import type { Clock } from '../domain/clock.ts';
import type { Caller, SessionLimits, SignInPlace } from '../domain/sessions.ts';
import type { ConsoleSettings, OperatorCaller } from '../domain/operators.ts';
import type { BuildInfo } from '../build-info.ts';

export interface Services {
  db: Db;
  clock: Clock;
  sender: CodeSender;
  market: Market;
  /** Where interest days start and end (EARN_TIMEZONE); Asia/Bangkok when not given. */
  earnTimeZone?: string;
  /** How long a newly added bank card or wallet waits before withdrawals may go to it (PAYEE_COOLING_HOURS; 0: at
   * once); 24 h when not given. */
  payeeCoolingMs?: number;
  /** The database's change notices: with them, reads are answered from memory between changes (kept-answers.ts). */
  changes?: Changes;
  /** How long sessions last (SESSION_IDLE_DAYS without use, SESSION_MAX_DAYS at most); 30 and 180 days when not given.
   * */
  sessionLimits?: SessionLimits;
  /** TWO_FACTOR_KEY or the data folder's key file (domain/two-factor-key.ts); a server started without one makes one
   * for its own lifetime (tests). */
  twoFactorKey?: Buffer;
  /** The operator console: CONSOLE_IDLE_MINUTES (30) and FOUR_EYES_USDT (10000) when not given. */
  operatorConsole?: ConsoleSettings;
  /** The version and build this process runs (build-info.ts); package.json's version and BUILD_ID when not given. */
  build?: BuildInfo;
  /** RECONCILE_EVERY_SECONDS in ms (the system page says how often the books' check runs); 300 s when not given. */
  reconcileEveryMs?: number;
}

export interface HandlerContext extends Services {
  payeeCoolingMs: number;
  twoFactorKey: Buffer;
  operatorConsole: ConsoleSettings;
  /** Set on endpoints declared with `auth` (the default). */
  caller: Caller;
  /** Set on console endpoints (declared with `console`): the operator calling, of the role the endpoint needs. */
  operator: OperatorCaller;
  /** Answers kept in memory; a handler that ends sessions drops them here too (its own notice may come after its
   * reply). */
  kept: KeptAnswers;
  locale: Locale;
  t: Translate;
  ip: string;
  request: FastifyRequest;
}

/** Where the request signing in comes from: its User-Agent and address (the domain bounds and masks them). */
export function signInPlace({ request, ip }: Pick<HandlerContext, 'request' | 'ip'>): SignInPlace {
  const userAgent = request.headers['user-agent'];
  return { userAgent: typeof userAgent === 'string' ? userAgent : '', ip };
}
