// Verification codes leave through a sender. The default one keeps them in the outbox table and
// the server log, so development, tests and the operator command can read them.
import type { Db } from '../db/connection.ts';
import { outbox } from '../db/schema.ts';

export type CodeChannel = 'sms' | 'email';

export interface CodeSender {
  send(message: { channel: CodeChannel; target: string; code: string }): Promise<void>;
}

export function outboxSender(db: Db, log: (line: string) => void): CodeSender {
  return {
    async send({ channel, target, code }) {
      const body = `Your verification code is ${code}. It expires in 10 minutes.`;
      await db.insert(outbox).values({ channel, target, body });
      log(`verification code for ${target} (${channel}): ${code}`);
    },
  };
}
