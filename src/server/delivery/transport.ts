// How a message in the outbox leaves the server: one transport per channel (e-mail, SMS, push).
// The delivery job claims a row and hands it to its channel's transport; the outcome says whether
// it was sent, should be tried again later, or can never be sent.
import type { outbox } from '../db/schema.ts';

export type OutboxRow = typeof outbox.$inferSelect;
export type Channel = 'email' | 'sms' | 'push';

export type Outcome =
  | { sent: true }
  /** `retry`: a passing failure (a refusal, a time-out, a 5xx); false when trying again cannot help (a bad address, a
   * subscription gone). */
  | { sent: false; retry: boolean; error: string };

export interface Transport {
  send(row: OutboxRow): Promise<Outcome>;
}
