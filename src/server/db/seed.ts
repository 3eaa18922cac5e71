// Demo data on first start: one demo account, the system config, the slides and a welcome message,
// the customers' words in all six languages (seed-translations.ts).
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from './connection.ts';
import { configEntries, messages, slides, users } from './schema.ts';
import { hashSecret } from '../secret-hash.ts';
import { APP_VERSION } from '../../api-contract/constants.ts';
import { seedContent } from './seed-content.ts';
import { seedBlindBox } from './seed-blindbox.ts';
import { DEMO_NOTICE, seedTranslations } from './seed-translations.ts';
import { DEFAULT_CHECK_IN_LADDER } from '../../api-contract/check-in.ts';

export const DEMO_ACCOUNT = {
  username: 'demo',
  password: 'demo1234',
  paypass: '123456',
  email: 'demo@example.com',
  /** E.164, as every stored mobile number (the demo's Thai mobile 081 234 5678). */
  phone: '+66812345678',
};

export const DEMO_CONFIG: Record<string, Record<string, string>> = {
  system: {
    scroll_notice: DEMO_NOTICE.en,
    service_url: '',
    appurl_android: `/downloads/coinvest.apk?v=${APP_VERSION}`,
    // Hosts the web-view may open (https only): documentation sites; service_url stays empty (the service page shows
    // the FAQ).
    webview_hosts: 'developer.mozilla.org,en.wikipedia.org',
  },
  // The daily check-in's ladder, under the act's historical name.
  signin: { ladder: DEFAULT_CHECK_IN_LADDER },
  share: { text: 'Join me on Coinvest, the crypto investment app. Register with my invitation code:' },
  about: {
    title: 'About Coinvest',
    text: 'Coinvest is a crypto-asset investment and trading platform. Every trade settles from the recorded price feed, and every movement of funds is kept in your account details.',
  },
};

/** A broadcast: every user, including those who register later, finds it unread at first (the startup dialog). */
export const WELCOME_MESSAGE = {
  title: 'Welcome to Coinvest',
  content:
    'Thank you for joining Coinvest. Prices in this demo come from a simulated market feed, not a live exchange, so feel free to explore options trading. Every movement of your funds is listed in your account details.',
};

/** Seeds only what is missing, so it is safe on every start and with several processes. */
export async function seedDemo(db: Db): Promise<boolean> {
  for (const [act, entries] of Object.entries(DEMO_CONFIG)) {
    const rows = Object.entries(entries).map(([key, value]) => ({ act, key, value }));
    await db.insert(configEntries).values(rows).onConflictDoNothing();
  }
  const [{ count }] = (await db.select({ count: sql<number>`count(*)::int` }).from(slides)) as [{ count: number }];
  if (count === 0) {
    await db.insert(slides).values([
      { position: 'home', title: 'Trade options in minutes', image: '/slides/slide-1.svg', sort: 1 },
      { position: 'home', title: 'Your funds, every movement recorded', image: '/slides/slide-2.svg', sort: 2 },
      { position: 'home', title: 'Invite friends and earn together', image: '/slides/slide-3.svg', sort: 3 },
      { position: 'user1', title: 'Complete your certification', image: '/slides/slide-2.svg', sort: 1 },
    ]);
  }
  const [welcome] = await db
    .select({ id: messages.id })
    .from(messages)
    .where(and(isNull(messages.userId), eq(messages.title, WELCOME_MESSAGE.title)))
    .limit(1);
  // A broadcast (no user): nothing is pushed for it, the row is the whole message.
  if (!welcome) await db.insert(messages).values({ userId: null, ...WELCOME_MESSAGE, createdAt: new Date() });
  await seedContent(db);
  await seedBlindBox(db);
  // After the items: their other languages (the items' own rows are English).
  await seedTranslations(db);
  const [passwordHash, paypassHash] = await Promise.all([
    hashSecret(DEMO_ACCOUNT.password),
    hashSecret(DEMO_ACCOUNT.paypass),
  ]);
  const created = await db
    .insert(users)
    .values({
      username: DEMO_ACCOUNT.username,
      email: DEMO_ACCOUNT.email,
      phone: DEMO_ACCOUNT.phone,
      passwordHash,
      paypassHash,
      nickname: 'Demo',
      inviteCode: 'DEMO2026',
    })
    .onConflictDoNothing()
    .returning({ id: users.id });
  return created.length > 0;
}
