// Verification codes leave through a sender. The real one queues the message (domain/delivery.ts)
// in the request's transaction, in the customer's language; the delivery job sends it by e-mail or
// SMS, or, with no transport configured, writes it to the server log (delivery/development.ts).
import type { Db, Executor } from '../db/connection.ts';
import type { Locale } from '../../api-contract/constants.ts';
import { codeMessage } from '../delivery/code-message.ts';
import { enqueue } from './delivery.ts';

export type CodeChannel = 'sms' | 'email';

export interface CodeSender {
  /**
   * `db`: the request's executor, so the queued message commits with the code (never the outer db
   * inside a transaction). Answers the queued message's id (a test's sender keeps codes in memory: none).
   */
  send(
    message: {
      channel: CodeChannel;
      target: string;
      code: string;
      language?: Locale;
      /** The anti-phishing code of the account `target` belongs to, if it has one (an e-mail carries it). */
      antiPhishing?: string | null;
    },
    db?: Executor,
  ): Promise<number | void>;
  /** Called after the transaction that queued a code committed: the delivery job runs now, not at its next tick. */
  wake?(): void;
}

export function outboxSender(outerDb: Db, wake: () => void = () => {}): CodeSender {
  return {
    async send({ channel, target, code, language = 'en', antiPhishing = null }, db: Executor = outerDb) {
      const message = codeMessage(channel, code, language, antiPhishing);
      // The code in the payload is for the development transport's log line only; the body carries it to the customer.
      // `antiPhishing` marks a body that starts with the customer's anti-phishing line (the operator's list drops it).
      const payload = channel === 'email' && antiPhishing ? { code, antiPhishing: true } : { code };
      return enqueue(db, { channel, target, kind: 'code', language, ...message, payload });
    },
    wake,
  };
}
