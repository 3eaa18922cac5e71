// The customer's writes that move funds whose answer was lost (the connection dropped after sending, or the page was
// closed or reloaded before it came), kept on the device until the server has said what became of them, and what it
// said until the customer has read it. Filled and asked by features/lost-answers/lost-answers.ts (and by
// features/lost-answers/funds-writes.ts while on their way); shown by features/lost-answers/LostAnswerDialog.tsx. Kept
// per user: a sign-out removes it with the rest of the customer's data; a session the server ended keeps it for the
// same customer's next sign-in (lib/session.ts, heldWrites). Merged across tabs (lib/storage.ts, acrossTabs): a tab
// open beside the one whose write was lost or on its way saves this record too, and must not write over that write.
import { persistedStore } from './storage.ts';

/**
 * One write sent and not answered: its call, Idempotency-Key, amount as sent ('' for none) and when it was first sent
 * under that key (ms, UTC).
 */
export interface LostWrite {
  path: string;
  key: string;
  amount: string;
  sentAt: number;
}

/**
 * What the server said of a lost write (api-contract/write-outcome.ts); `in_progress` is never kept here. `expired`
 * also when the device could not ask before the key's retention ran out (features/lost-answers/lost-answers.ts).
 */
export interface LostWriteOutcome extends LostWrite {
  state: 'applied' | 'refused' | 'not_received' | 'expired';
  /** The refusal as the server answered it; null otherwise. */
  msg: string | null;
}

export const lostAnswers = persistedStore(
  'lost-answers',
  {
    waiting: [] as LostWrite[],
    told: [] as LostWriteOutcome[],
    /** Sent and not yet answered: what is left here at the next start was on its way when the page closed. */
    sending: [] as LostWrite[],
  },
  { perUser: true, heldForUser: true, acrossTabs: true },
);
