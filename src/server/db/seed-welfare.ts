// The welfare tasks on first start: what each pays. Only missing rows are added, so an
// operator's later change (`npm run ops -- welfare <code> …`) is kept across restarts.
import type { Db } from './connection.ts';
import { welfareTasks } from './schema.ts';
import type { WelfareCode } from '../../api-contract/welfare.ts';

export const WELFARE_TASKS: { code: WelfareCode; asset: string; reward: string; sort: number }[] = [
  { code: 'primary_certification', asset: 'POINT', reward: '50', sort: 1 },
  { code: 'first_recharge', asset: 'POINT', reward: '100', sort: 2 },
  { code: 'first_option', asset: 'POINT', reward: '30', sort: 3 },
  { code: 'friend_certified', asset: 'USDT', reward: '5', sort: 4 },
];

export async function seedWelfare(db: Db): Promise<void> {
  await db.insert(welfareTasks).values(WELFARE_TASKS).onConflictDoNothing();
}
