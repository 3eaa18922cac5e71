// The customer's anti-phishing code (users.anti_phishing_code): read where an e-mail or a security
// notice is written for them, set or removed by its owner. The calls check the second factor and tell
// the customer of the change (http/anti-phishing-routes.ts). Never logged: it is only read and written
// here, and the messages that carry it leave it out of every log line (delivery/development.ts logs a
// code message's verification code alone; the operator's outbox list drops the line).
import { eq } from 'drizzle-orm';
import type { Executor } from '../db/connection.ts';
import { users } from '../db/schema.ts';

/** The user's code, or null when none is set (or no user). */
export async function antiPhishingCodeOf(db: Executor, userId: number): Promise<string | null> {
  const [row] = await db.select({ code: users.antiPhishingCode }).from(users).where(eq(users.id, userId));
  return row?.code ?? null;
}

/** Sets the user's code (already checked by the API contract: anti-phishing.ts), or removes it with null. */
export async function saveAntiPhishingCode(db: Executor, userId: number, code: string | null): Promise<void> {
  await db.update(users).set({ antiPhishingCode: code }).where(eq(users.id, userId));
}
