// The development transport: no network. It writes the message to the server log and marks it sent,
// so `npm start`, the tests and the operator command (`ops outbox`) read codes without a mail
// server or an SMS account. It also takes every channel no real transport is configured for.
import type { OutboxRow, Outcome, Transport } from './transport.ts';

/** A code row's payload carries the code itself, for this log line (tests and the e2e runs read it). */
const codeOf = (row: OutboxRow) =>
  row.payload && typeof row.payload === 'object' && 'code' in row.payload ? String(row.payload.code) : null;

export function developmentTransport(log: (line: string) => void): Transport {
  return {
    async send(row): Promise<Outcome> {
      const code = row.kind === 'code' ? codeOf(row) : null;
      if (code) log(`verification code for ${row.target} (${row.channel}): ${code}`);
      else log(`message for ${row.target} (${row.channel}, ${row.kind}): ${row.subject || row.body}`);
      return { sent: true };
    },
  };
}
