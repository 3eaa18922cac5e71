// The demo account's opening balances (a server started with SEED_DEMO): USDT to trade and points to
// redeem, each granted once through the ledger like any other movement (a later start finds them posted).
import { eq } from 'drizzle-orm';
import type { Db } from '../db/connection.ts';
import { users } from '../db/schema.ts';
import { DEMO_GRANT_USDT } from '../db/seed-markets.ts';
import { DEMO_POINTS } from '../db/seed-funds.ts';
import { POINTS } from '../../api-contract/rewards.ts';
import { AlreadyPosted, USDT, post, type Posting } from './ledger.ts';

export async function grantDemoBalances(db: Db, demoUsername: string, now: Date): Promise<void> {
  const [demo] = await db.select({ id: users.id }).from(users).where(eq(users.username, demoUsername));
  if (!demo) return;
  const grants: Posting[] = [
    { userId: demo.id, asset: USDT, amount: DEMO_GRANT_USDT, kind: 'demo_grant', reference: `demo:${demo.id}` },
    { userId: demo.id, asset: POINTS, amount: DEMO_POINTS, kind: 'demo_grant', reference: `demo-points:${demo.id}` },
  ];
  for (const grant of grants) {
    try {
      await db.transaction((tx) => post(tx, grant, now));
    } catch (error) {
      if (!(error instanceof AlreadyPosted)) throw error;
    }
  }
}
