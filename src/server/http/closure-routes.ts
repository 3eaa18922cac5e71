// Closing an account and the data export (api-contract/closure.ts). The export is no contract endpoint: its answer is
// a file (a ZIP archive), sent to the session's owner only; without a live session, or refused, it answers the usual
// envelope (ret -1 for no live session, ret 0 and the text for a refusal), like every call.
import { closeAccount, closureEnding, EXPORT_PATH } from '../../api-contract/closure.ts';
import { assetAmountsOf } from '../../api-contract/asset-amounts.ts';
import { RET_FAIL, RET_TOKEN_INVALID } from '../../api-contract/envelope.ts';
import { texts } from '../../api-contract/texts.ts';
import { serverTexts } from '../../api-contract/server-texts.ts';
import { closeAccount as closeTheAccount, closureHolds } from '../domain/closure.ts';
import { exportArchive } from '../domain/data-export.ts';
import { Refusal } from '../domain/refusal.ts';
import { requestLocale, translator } from '../i18n.ts';
import { envelope } from './handle.ts';
import { callerOf } from './rate-limits.ts';
import type { RouteModule } from './route-module.ts';
import { secretsAhead } from './secrets-ahead.ts';

export const closureRoutes: RouteModule = ({ app, route, services, cache }) => {
  route(
    closeAccount,
    async (input, { db, caller, clock, cache: answers, secrets, t }) => {
      const closed = await closeTheAccount(
        db,
        caller.userId,
        { kind: input.secret_kind, secret: input.secret },
        assetAmountsOf(input.amounts),
        clock.now(),
        t(serverTexts.certificationEndedByClosure),
        secrets,
      );
      answers.sessions.hold(caller.userId);
      return closed;
    },
    // The password named verified before the call's transaction opens.
    {
      ahead: secretsAhead((input) => (input.secret_kind === 'login' ? { login: input.secret } : { pay: input.secret })),
    },
  );

  route(closureEnding, async (_input, { db, caller, clock, t }) => {
    const { holds, ended } = await closureHolds(db, caller.userId, clock.now(), false);
    return { lists: ended.balances, holds: holds.map((hold) => t(hold.textId, hold.values)) };
  });

  app.get<{ Querystring: { documents?: string } }>(EXPORT_PATH, async (request, reply) => {
    const lang = requestLocale(request.headers.lang as string | undefined);
    const t = translator(lang);
    reply.header('cache-control', 'private, no-store');
    const caller = await callerOf(services, cache, request);
    if (!caller) return reply.send(envelope(RET_TOKEN_INVALID, t(texts.tokenInvalid), null));
    const now = services.clock.now();
    try {
      const archive = await exportArchive(services.db, caller.userId, request.query.documents === '1', now, lang);
      const day = now.toISOString().slice(0, 10);
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="account-data-${day}.zip"`)
        .send(Buffer.from(archive.buffer, archive.byteOffset, archive.byteLength));
    } catch (error) {
      if (error instanceof Refusal) return reply.send(envelope(RET_FAIL, t(error.textId, error.values), null));
      throw error;
    }
  });
};
