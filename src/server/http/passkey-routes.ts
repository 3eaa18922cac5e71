// Passkeys: the caller's list, adding one (password and second factor first), removing
// one, and signing in with one. The relying party is the configured one or the page's own host.
import { serverTexts } from '../../api-contract/server-texts.ts';
import {
  addPasskey,
  listPasskeys,
  passkeyCreationOptions,
  passkeySignIn,
  passkeySignInOptions,
  removePasskey,
} from '../../api-contract/passkeys.ts';
import { checkLoginPasswordOf, findUser } from '../domain/accounts.ts';
import { secretsAhead } from './secrets-ahead.ts';
import { signedInFrom } from '../domain/login-guessing.ts';
import * as passkeys from '../domain/passkeys.ts';
import { signInRemembered } from '../domain/sessions.ts';
import { noticeSecurityChange } from '../domain/security-notices.ts';
import { requireSecondFactor, secondFactorSince } from '../domain/two-factor.ts';
import { signInPlace, type HandlerContext } from './context.ts';
import { recordSignIn, recordingFailure } from '../domain/login-history.ts';
import { attemptOf, WRONG_PASSKEY } from './login-attempts.ts';
import { countryLookup } from '../domain/login-places.ts';
import type { RouteModule } from './route-module.ts';
import { Refusal } from '../domain/refusal.ts';

export const passkeyRoutes: RouteModule = ({ route, settings }) => {
  const { relyingParty, corsOrigins, authRateLimitPerMinute: perMinute } = settings;
  const countryOf = countryLookup(settings.loginCountryFile);
  const partyOf = ({ request }: Pick<HandlerContext, 'request'>) => {
    // HTTP/2 names the host in :authority; it has no Host header.
    const { origin, host = request.headers[':authority'] } = request.headers;
    return passkeys.relyingPartyOf(
      relyingParty,
      typeof origin === 'string' ? origin : undefined,
      typeof host === 'string' ? host : undefined,
      corsOrigins,
    );
  };

  route(listPasskeys, async (_input, { db, caller }) => {
    const lists = await passkeys.listPasskeys(db, caller.userId);
    return { lists, page: 1, total: lists.length };
  });

  route(
    passkeyCreationOptions,
    async (input, ctx) => {
      const { db, caller, clock, twoFactorKey } = ctx;
      const now = clock.now();
      const party = partyOf(ctx);
      const user = await findUser(db, caller.userId);
      // The login password (its own counter, as changing it), then the second factor when it is on.
      await checkLoginPasswordOf(db, user, input.password, 'password', now, ctx.secrets);
      await requireSecondFactor(db, user.id, input.otp, twoFactorKey, now);
      return passkeys.creationOptions(db, user, party, now);
    },
    // The login password verified before the call's transaction opens.
    { perMinute, ahead: secretsAhead((input) => ({ login: input.password })) },
  );

  route(addPasskey, (input, ctx) =>
    passkeys.addPasskey(
      ctx.db,
      ctx.caller.userId,
      input.credential,
      partyOf(ctx),
      signInPlace(ctx).userAgent,
      ctx.clock.now(),
      ctx.t,
    ),
  );

  route(removePasskey, async (input, { db, caller, clock }) => {
    await passkeys.removePasskey(db, caller.userId, input.id);
    await noticeSecurityChange(db, caller.userId, 'passkeyRemoved', clock.now());
    return null;
  });

  route(passkeySignInOptions, (_input, ctx) => passkeys.signInOptions(ctx.db, partyOf(ctx), ctx.clock.now()), {
    perMinute,
  });

  route(
    passkeySignIn,
    async (input, ctx) => {
      const { db, clock, ip, twoFactorKey } = ctx;
      const now = clock.now();
      const place = signInPlace(ctx);
      const sign = () => passkeys.passkeyOwner(db, input.credential, partyOf(ctx), now);
      // A refused answer for a passkey the server holds goes into its account's sign-in history; any other records
      // nothing.
      const claimed = await passkeys.claimedPasskeyOwner(db, input.credential);
      const userId =
        claimed === null
          ? await sign()
          : await recordingFailure(db, claimed, attemptOf(place, 'passkey', countryOf), WRONG_PASSKEY, now, sign);
      // The owner proved themselves from this address: as a right password, it clears the address's login lock.
      await signedInFrom(db, { userId }, ip, now);
      // A passkey is a second factor of its own (something held, unlocked by the owner): the device is remembered. The
      // session begins only while the passkey is still the account's: removed meanwhile, it is refused as any removed
      // passkey; removed later, the removal waits for the session (and a reset then ends it).
      const since = await secondFactorSince(db, userId);
      const session = await db.transaction(async (tx) => {
        if (!(await passkeys.passkeyStillHeld(tx, input.credential, userId)))
          throw new Refusal(serverTexts.passkeyNotRecognised.id);
        return signInRemembered(tx, userId, place, { key: twoFactorKey, since }, now);
      });
      await recordSignIn(db, userId, attemptOf(place, 'passkey', countryOf), now);
      return session;
    },
    { perMinute },
  );
};
