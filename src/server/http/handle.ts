// Registers a contract endpoint: the API contract's schema validates the request, the caller is
// resolved from the token, a write's Idempotency-Key is honoured, and the answer is the envelope.
import { serverTexts } from '../../api-contract/server-texts.ts';
import { consoleTexts } from '../../api-contract/console-texts.ts';
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import type { MessageDescriptor } from '@lingui/core';
import {
  inputFieldNames,
  type Endpoint,
  type FormSchema,
  type ParsedOf,
  type ResultOf,
} from '../../api-contract/endpoint.ts';
import {
  IDEMPOTENCY_BUSY_HEADER,
  IDEMPOTENCY_HEADER,
  LANG_HEADER,
  RET_FAIL,
  RET_OK,
  RET_TOKEN_INVALID,
  TOKEN_HEADER,
  type Envelope,
} from '../../api-contract/envelope.ts';
import { firstIssueField, firstIssueTextId } from '../../api-contract/fields.ts';
import { texts } from '../../api-contract/texts.ts';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  holdIdempotencyKey,
  idempotencyScope,
  releaseIdempotencyKey,
  replayToEndedSession,
  writeScope,
} from '../domain/idempotency.ts';
import { sqlStateOf, type Db, type Tx } from '../db/connection.ts';
import type { HandlerContext, Services } from './context.ts';
import { findEndedSession, hashToken, plausibleToken, type Caller, type EndedSession } from '../domain/sessions.ts';
import { Refusal } from '../domain/refusal.ts';
import { cachedAnswers, cachedJson, type CachedAnswers } from './cached-answers.ts';
import { requestLocale, textById, translator, type Translate } from '../i18n.ts';
import type { Locale } from '../../api-contract/constants.ts';
import { callerOf } from './rate-limits.ts';
import { consoleOperatorOf } from './console-caller.ts';
import type { OperatorCaller } from '../domain/operators.ts';
import { hasUnsupportedCharacters } from './unsupported-characters.ts';

export type Handler<E> = (input: ParsedOf<E>, ctx: HandlerContext) => Promise<ResultOf<E>>;

export interface RouteOptions<E = unknown> {
  /** Per-IP limit for this route (login, codes): requests per minute. */
  perMinute?: number;
  /**
   * Work done before the call's transaction opens, on the pool, after the form is read and a keyed write's key is
   * claimed (a replay never runs it): what would otherwise keep a transaction waiting, such as verifying a secret or
   * hashing a new one (PreparedSecrets, set on `ctx.secrets` by secrets-ahead.ts). It prepares and never refuses: what
   * the call refuses, the handler does, in its order (a Refusal it raises anyway counts as nothing prepared:
   * prepareAhead). Any other error it throws fails the call as the handler's would, and frees a keyed write's key.
   */
  ahead?: (input: ParsedOf<E>, ctx: HandlerContext) => Promise<void>;
  /**
   * What a customer's session ended by one of its own keyed writes may still ask of this call (the write-outcome
   * lookup about that write): the answer's data, or null to refuse the ended token as any other call refuses it. Asked
   * only with an ended session's token (EndedSession) and a well-formed form; it must only read. Without it an ended
   * token receives nothing here but the stored answer of the write that ended it (answerEndedSession).
   */
  forEndedSession?: (input: ParsedOf<E>, ended: { db: Db; session: EndedSession }) => Promise<ResultOf<E> | null>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

export function envelope<T>(ret: Envelope['ret'], msg: string, data: T): Envelope<T> {
  return { ret, msg, data };
}

/**
 * The answer of a refusal: ret 0 with `msg`, and `field` (the request field it is about) when `endpoint`'s input
 * declares a field of that name; a name it does not declare is left out, so a client never hears of a field the
 * contract does not have.
 */
export function refusedEnvelope(msg: string, field: string | undefined, endpoint: Endpoint): Envelope<null> {
  const answer = envelope(RET_FAIL, msg, null);
  return field !== undefined && inputFieldNames(endpoint.input).includes(field) ? { ...answer, field } : answer;
}

/** Binds endpoints to the app: `route(login, async (input, ctx) => …)`. */
export function router(
  app: FastifyInstance,
  services: Services,
  cache: CachedAnswers = cachedAnswers(services.changes),
) {
  return function route<S extends FormSchema, R>(
    endpoint: Endpoint<S, R>,
    handler: Handler<Endpoint<S, R>>,
    options: RouteOptions<Endpoint<S, R>> = {},
  ) {
    app.route({
      method: endpoint.method,
      url: `/api${endpoint.path}`,
      config: options.perMinute ? { perAddressPerMinute: options.perMinute } : {},
      handler: (request, reply) => answer(endpoint, handler, services, cache, request, reply, options),
    });
  };
}

async function answer<S extends FormSchema, R>(
  endpoint: Endpoint<S, R>,
  handler: Handler<Endpoint<S, R>>,
  services: Services,
  cache: CachedAnswers,
  request: FastifyRequest,
  reply: FastifyReply,
  { ahead, forEndedSession }: RouteOptions<Endpoint<S, R>>,
): Promise<Envelope | string> {
  const locale = requestLocale(header(request, LANG_HEADER));
  const t = translator(locale);

  let caller: Caller | null = null;
  let operator: OperatorCaller | null = null;
  if (endpoint.console && endpoint.auth) {
    // A console call: an operator's session, of the role the endpoint names (a customer's token is no session here).
    operator = await consoleOperatorOf(services, request);
    if (!operator) return envelope(RET_TOKEN_INVALID, t(texts.tokenInvalid), null);
    if (endpoint.console !== 'operator' && operator.mustChangePassword)
      return envelope(RET_FAIL, t(consoleTexts.consoleChangePasswordFirst), null);
    if (endpoint.console !== 'operator' && endpoint.console !== operator.role)
      return envelope(RET_FAIL, t(consoleTexts.consoleRoleRefused), null);
  } else if (endpoint.auth) {
    caller = await callerOf(services, cache, request);
    if (!caller) return answerEndedSession(endpoint, services, request, reply, t, forEndedSession);
  }

  const raw = endpoint.multipart ? {} : ((endpoint.method === 'GET' ? request.query : request.body) ?? {});
  if (hasUnsupportedCharacters(raw)) return envelope(RET_FAIL, t(texts.unsupportedCharacters), null);
  const parsed = parseForm(endpoint.input, raw);
  if (!parsed.success)
    return refusedEnvelope(t(firstIssueTextId(parsed.issues, textById)), firstIssueField(parsed.issues), endpoint);
  const practiceRefused = accountNotServed(endpoint, raw, parsed.output);
  if (practiceRefused) return envelope(RET_FAIL, t(practiceRefused), null);

  const ctx = handlerContext(services, cache, caller as Caller, operator as OperatorCaller, locale, t, request);
  const input = parsed.output as ParsedOf<Endpoint<S, R>>;
  // A read-only call on the read calls' connections: it never waits for one behind write transactions.
  if (endpoint.readOnly) ctx.db = services.reads;
  const key = header(request, IDEMPOTENCY_HEADER);
  if (endpoint.readOnly || endpoint.multipart || !key) {
    if (ahead) await prepareAhead(ahead, input, ctx);
    return runRead(endpoint, handler, input, ctx, reply);
  }
  const run = (context: HandlerContext) => runHandler(endpoint, handler, input, context);

  if (key.length > 128) return envelope(RET_FAIL, t(texts.invalidRequest), null);
  const scopedKey = idempotencyScope(
    writeScope(caller?.userId ?? (operator ? `operator ${operator.id}` : 'anon'), endpoint.path),
    key,
  );
  const fingerprint = fingerprintOf(raw);
  const claim = await claimIdempotencyKey(services.db, scopedKey, fingerprint, services.clock.now());
  if (claim.kind === 'replay') {
    reply.header('idempotent-replay', 'true');
    return claim.response as Envelope;
  }
  if (claim.kind === 'mismatch') return envelope(RET_FAIL, t(serverTexts.idempotencyKeyReused), null);
  if (claim.kind === 'busy') return stillRunning(reply, t);
  try {
    // Before the keyed transaction, so that it never waits for this work (ctx.db is still the pool here). A copy of
    // the request sent meanwhile may find the claim unheld and run too: the keyed transaction below holds the claim,
    // so only one of them applies the write and the other replays its answer.
    if (ahead) await prepareAhead(ahead, input, ctx);
    // The effect and its stored answer commit together: a crash before the commit leaves neither.
    /** One transaction that holds the claim, answers (`respond`) and stores the answer with what it wrote. */
    const keyed = (respond: (tx: Tx) => Promise<Envelope>) =>
      services.db.transaction(async (tx) => {
        const held = await holdIdempotencyKey(tx, scopedKey, fingerprint, services.clock.now());
        if (held.kind !== 'claimed') return held;
        const response = await respond(tx);
        // An answer of success is stored in the COMMIT's round trip; a refusal at once, as a refusal answered in a
        // failed transaction is told by its update's error (storingRefusal).
        // The caller's session goes with it, marked as ended by this write when it was (answerEndedSession).
        await storingRefusal(response, () =>
          completeIdempotencyKey(tx, scopedKey, response, {
            withCommit: response.ret === RET_OK,
            sessionId: caller?.sessionId,
          }),
        );
        return { kind: 'answered' as const, response };
      });
    // ctx.db is the transaction: the handler's first transaction runs in it directly when nothing went through it
    // before (two statements fewer), any other becomes a savepoint of it. When a direct one failed, its writes are
    // mixed into the keyed transaction: that rolls back whole and the handler runs again, every transaction of it a
    // savepoint, as a fresh request would.
    const outcome = await keyed(async (tx) => {
      const handlerTx = firstTransactionDirect(tx);
      // Whatever the handler made of a failed direct transaction (an answer, or an error of a statement sent after it
      // on the broken transaction), the handler runs again with savepoints.
      const response = await run({ ...ctx, db: handlerTx.db }).catch((error: unknown) => {
        throw handlerTx.failed() ? new RunAgainWithSavepoints() : error;
      });
      if (handlerTx.failed()) throw new RunAgainWithSavepoints();
      return response;
    })
      .catch((error: unknown) => {
        if (!(error instanceof RunAgainWithSavepoints)) throw error;
        return keyed((tx) => run({ ...ctx, db: tx }));
      })
      .catch(async (error: unknown) => {
        if (!(error instanceof RefusedInFailedTransaction)) throw error;
        // Its writes went with the transaction; the claim, committed before it, is held again to store the refusal.
        return keyed(async () => error.response);
      });
    if (outcome.kind === 'answered') return outcome.response;
    if (outcome.kind === 'replay') {
      reply.header('idempotent-replay', 'true');
      return outcome.response as Envelope;
    }
    if (outcome.kind === 'mismatch') return envelope(RET_FAIL, t(serverTexts.idempotencyKeyReused), null);
    return stillRunning(reply, t);
  } catch (error) {
    await releaseIdempotencyKey(services.db, scopedKey);
    throw error;
  }
}

/**
 * The answer to a copy of a keyed write whose first copy still runs: "still being processed" (ret 0), marked with
 * IDEMPOTENCY_BUSY_HEADER so the app reads it as no outcome yet, not as a refusal.
 */
function stillRunning(reply: FastifyReply, t: Translate): Envelope {
  reply.header(IDEMPOTENCY_BUSY_HEADER, 'true');
  return envelope(RET_FAIL, t(serverTexts.idempotencyBusy), null);
}

/** The fingerprint of a keyed write's form as received: a copy sent again under the same key must match it. */
const fingerprintOf = (raw: unknown) => createHash('sha256').update(JSON.stringify(raw)).digest('hex');

/**
 * A customer's call whose token signs nothing in. Refused as an ended login (RET_TOKEN_INVALID), unless the token
 * belongs to a session that one of its own keyed writes ended (closing the account, a password change, a freeze, a
 * log-out) and the call is that write sent again: the same path, Idempotency-Key and form (domain/idempotency.ts,
 * replayToEndedSession), answered with the stored answer, marked `idempotent-replay`; or the route's own
 * `forEndedSession` (the write-outcome lookup about that write). Nothing runs, no key is claimed: a customer whose
 * account closed while the answer was lost learns that it closed, not that their login expired, and the ended token
 * still authenticates nothing else.
 */
async function answerEndedSession<S extends FormSchema, R>(
  endpoint: Endpoint<S, R>,
  services: Services,
  request: FastifyRequest,
  reply: FastifyReply,
  t: Translate,
  forEndedSession: RouteOptions<Endpoint<S, R>>['forEndedSession'],
): Promise<Envelope> {
  const refused = envelope(RET_TOKEN_INVALID, t(texts.tokenInvalid), null);
  const key = header(request, IDEMPOTENCY_HEADER);
  const token = header(request, TOKEN_HEADER);
  if (endpoint.readOnly || endpoint.multipart || !key || key.length > 128 || !plausibleToken(token)) return refused;
  const session = await findEndedSession(services.db, hashToken(token));
  if (!session) return refused;
  const raw = (endpoint.method === 'GET' ? request.query : request.body) ?? {};
  if (forEndedSession) {
    if (hasUnsupportedCharacters(raw)) return refused;
    const parsed = parseForm(endpoint.input, raw);
    if (!parsed.success) return refused;
    const data = await forEndedSession(parsed.output as ParsedOf<Endpoint<S, R>>, { db: services.db, session });
    return data === null ? refused : envelope(RET_OK, t(texts.success), data);
  }
  const scopedKey = idempotencyScope(writeScope(session.userId, endpoint.path), key);
  const stored = await replayToEndedSession(services.db, scopedKey, fingerprintOf(raw), session.sessionId);
  if (!stored) return refused;
  reply.header('idempotent-replay', 'true');
  return stored.response as Envelope;
}

/**
 * Runs a route's `ahead` work on `ctx`. It prepares and never refuses (RouteOptions.ahead); a Refusal it raises anyway
 * is taken as nothing prepared (`ctx.secrets` cleared), so that the handler refuses in its own order, where the call
 * would otherwise fail with a server error. Any other error is raised as it came.
 */
async function prepareAhead<I>(
  ahead: (input: I, ctx: HandlerContext) => Promise<void>,
  input: I,
  ctx: HandlerContext,
): Promise<void> {
  try {
    await ahead(input, ctx);
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    ctx.secrets = undefined;
  }
}

/** Spelled out: V8 took ~4 µs a request to build `{ ...services, cache, … }` (measured on Node 20). */
function handlerContext(
  services: Services,
  cache: CachedAnswers,
  caller: Caller,
  operator: OperatorCaller,
  locale: Locale,
  t: Translate,
  request: FastifyRequest,
): HandlerContext {
  const {
    db,
    reads,
    clock,
    sender,
    market,
    earnTimeZone,
    payeeCoolingMs,
    sessionLimits,
    changes,
    twoFactorKey,
    receiptKeys,
    operatorConsole,
    build,
    reconcileEveryMs,
  } = services;
  return {
    db,
    reads,
    clock,
    sender,
    market,
    earnTimeZone,
    payeeCoolingMs,
    sessionLimits,
    changes,
    twoFactorKey,
    receiptKeys,
    operatorConsole,
    build,
    reconcileEveryMs,
    cache,
    caller,
    operator,
    locale,
    t,
    ip: request.ip,
    request,
  };
}

/** A call whose answer is not stored for replay: a cached answer kept serialised goes out as its JSON text. */
async function runRead<E extends Endpoint>(
  endpoint: E,
  handler: Handler<E>,
  input: ParsedOf<E>,
  ctx: HandlerContext,
  reply: FastifyReply,
): Promise<Envelope | string> {
  const answered = await runHandler(endpoint, handler, input, ctx);
  const json =
    answered.ret === RET_OK ? cachedJson(answered.data, ctx.locale, () => JSON.stringify(answered)) : undefined;
  if (!json) return answered;
  reply.type(JSON_TYPE);
  return json;
}

async function runHandler<E extends Endpoint>(
  endpoint: E,
  handler: Handler<E>,
  input: ParsedOf<E>,
  ctx: HandlerContext,
): Promise<Envelope> {
  try {
    const data = await handler(input, ctx);
    return envelope(RET_OK, ctx.t(texts.success), data ?? null);
  } catch (error) {
    if (error instanceof Refusal) return refusedEnvelope(ctx.t(error.textId, error.values), error.field, endpoint);
    throw error;
  }
}

/** A keyed write whose first transaction, run directly in the keyed one, failed: run it again with savepoints. */
class RunAgainWithSavepoints {}

/**
 * The keyed write's transaction `tx` as its handler sees it (`db`): the handler's first transaction, when nothing went
 * through `tx` before it (any property of it read counts), runs in `tx` directly instead of in a savepoint: there is
 * nothing before it that its failure must leave in place. Every later or nested transaction is a savepoint as usual.
 * `failed()`: the direct one threw, so `tx` holds part of its writes and must not commit.
 */
function firstTransactionDirect(tx: Tx): { db: Tx; failed: () => boolean } {
  let used = false;
  let failed = false;
  const db = new Proxy(tx, {
    get(target, property) {
      if (property === 'transaction' && !used) {
        used = true;
        return async <T>(work: (inner: Tx) => Promise<T>): Promise<T> => {
          try {
            return await work(target);
          } catch (error) {
            failed = true;
            throw error;
          }
        };
      }
      used = true;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { db, failed: () => failed };
}

/** A keyed write refused after one of its statements failed: its transaction can store nothing more. */
class RefusedInFailedTransaction {
  readonly response: Envelope;
  constructor(response: Envelope) {
    this.response = response;
  }
}

/**
 * Stores a keyed write's answer (`store`, in the write's transaction). A refusal keeps what the handler wrote on
 * purpose before refusing (a wrong password or code counted, as without a key: the handler's own transactions are
 * savepoints, or its first one ran directly and the handler ran again with savepoints when that one failed, so a
 * refusal inside one has already rolled it back) unless a failed statement broke the transaction
 * (PostgreSQL refuses every later statement, SQLSTATE 25P02): then the transaction rolls back whole and the refusal is
 * stored by a transaction of its own (RefusedInFailedTransaction). A savepoint around every keyed write did the same
 * for two statements more on each.
 */
async function storingRefusal(response: Envelope, store: () => Promise<void>): Promise<void> {
  try {
    await store();
  } catch (error) {
    if (response.ret === RET_OK || sqlStateOf(error) !== '25P02') throw error;
    throw new RefusedInFailedTransaction(response);
  }
}

/**
 * Validates a form. A field left out is read as sent empty, so the user gets that field's own
 * validation text ('Please enter your mobile number!') instead of valibot's generic missing-key issue.
 */
function parseForm<S extends FormSchema>(schema: S, raw: unknown) {
  let input = raw;
  for (;;) {
    const parsed = v.safeParse(schema, input, { abortEarly: true });
    const issue = parsed.issues?.[0];
    const place =
      issue?.kind === 'schema' && issue.type === 'object' && issue.path?.length === 1 ? issue.path[0] : undefined;
    const missing = place?.origin === 'key' ? place.key : undefined;
    if (typeof missing !== 'string' || typeof input !== 'object' || input === null || missing in input) return parsed;
    input = { ...input, [missing]: '' };
  }
}

/**
 * A customer's call asking for an account (`account=practice`) that its schema does not take: the call has no
 * practice mode, and dropping the field would spend real money, so it is refused (the practice text; another value
 * than 'real' is no valid request). Null when the call serves the account asked, or none was asked.
 */
function accountNotServed(endpoint: Endpoint, raw: unknown, output: unknown): MessageDescriptor | null {
  if (endpoint.console || typeof raw !== 'object' || raw === null || !('account' in raw)) return null;
  if (typeof output === 'object' && output !== null && 'account' in output) return null;
  const asked = (raw as { account: unknown }).account;
  if (asked === 'real' || asked === '') return null;
  return asked === 'practice' ? serverTexts.practiceNotOffered : texts.invalidRequest;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
