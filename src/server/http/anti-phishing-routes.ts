// The anti-phishing code: its owner reads it, sets or changes it, removes it. A change takes the second
// factor when two-factor is on (checked first, and used up), then is written with its security notice in
// one transaction; the notice of a new code already carries it.
import { antiPhishingStatus, removeAntiPhishing, setAntiPhishing } from '../../api-contract/anti-phishing.ts';
import { serverTexts } from '../../api-contract/server-texts.ts';
import { antiPhishingCodeOf, saveAntiPhishingCode } from '../domain/anti-phishing.ts';
import { Refusal } from '../domain/refusal.ts';
import { noticeSecurityChange } from '../domain/security-notices.ts';
import { requireSecondFactor } from '../domain/two-factor.ts';
import type { RouteModule } from './route-module.ts';

export const antiPhishingRoutes: RouteModule = ({ route }) => {
  route(antiPhishingStatus, async (_input, { db, caller }) => ({
    phrase: await antiPhishingCodeOf(db, caller.userId),
  }));

  route(setAntiPhishing, async (input, { db, caller, clock, twoFactorKey }) => {
    const now = clock.now();
    await requireSecondFactor(db, caller.userId, input.otp, twoFactorKey, now);
    await db.transaction(async (tx) => {
      await saveAntiPhishingCode(tx, caller.userId, input.phrase);
      await noticeSecurityChange(tx, caller.userId, 'antiPhishingSet', now);
    });
    return { phrase: input.phrase };
  });

  route(removeAntiPhishing, async (input, { db, caller, clock, twoFactorKey }) => {
    const now = clock.now();
    // Nothing to remove: refused before the second factor, so no code is used up for it.
    if ((await antiPhishingCodeOf(db, caller.userId)) === null) throw new Refusal(serverTexts.antiPhishingNotSet.id);
    await requireSecondFactor(db, caller.userId, input.otp, twoFactorKey, now);
    await db.transaction(async (tx) => {
      await saveAntiPhishingCode(tx, caller.userId, null);
      await noticeSecurityChange(tx, caller.userId, 'antiPhishingRemoved', now);
    });
    return { phrase: null };
  });
};
