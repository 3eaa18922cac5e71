// Verification codes leave through a sender. The default one keeps them in the outbox table and
// the server log, so development, tests and the operator command can read them.
import { desc } from 'drizzle-orm';
import type { Db, Executor } from '../db/connection.ts';
import { outbox } from '../db/schema.ts';

export type CodeChannel = 'sms' | 'email';

export interface CodeSender {
  /** `db`: the request's executor, so the outbox row commits with the code (never the outer db inside a transaction). */
  send(message: { channel: CodeChannel; target: string; code: string }, db?: Executor): Promise<void>;
}

export function outboxSender(outerDb: Db, log: (line: string) => void): CodeSender {
  return {
    async send({ channel, target, code }, db: Executor = outerDb) {
      const body = `Your verification code is ${code}. It expires in 10 minutes.`;
      await db.insert(outbox).values({ channel, target, body });
      log(`verification code for ${target} (${channel}): ${code}`);
    },
  };
}

/** The last `count` messages of the outbox, newest first (the operator's look at what was sent). */
export const lastSent = (db: Executor, count: number) => db.select().from(outbox).orderBy(desc(outbox.id)).limit(count);
