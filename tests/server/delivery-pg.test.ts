// Any number of server processes send each queued message once. Two real servers on one
// PostgreSQL database, one SMTP stand-in, 200 messages queued at once: every message arrives exactly
// once. PostgreSQL only (the server-pg project): the embedded database serves one process.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf, type Database } from '../../src/server/db/connection.ts';
import { enqueue } from '../../src/server/domain/delivery.ts';
import { startMailStandIn, type MailStandIn } from './mail-standin.ts';
import { processesOnPostgres, type ProcessesOnPostgres } from './pg-processes.ts';

const MESSAGES = 200;

describe('delivery by two server processes on one PostgreSQL', () => {
  let database: Database;
  let mail: MailStandIn;
  let processes: ProcessesOnPostgres;

  beforeAll(async () => {
    mail = await startMailStandIn();
    processes = await processesOnPostgres(['first', 'second'], {
      SMTP_URL: mail.url,
      SMTP_FROM: 'Coinvest <no-reply@coinvest.test>',
      DELIVERY_RETRY_SECONDS: '1,1,1,1',
    });
    database = processes.database;
  }, 180_000);

  afterAll(async () => {
    await processes?.stop();
    await mail?.close();
  });

  it(`${MESSAGES} queued messages: each sent exactly once`, async () => {
    const started = Date.now();
    await database.db.transaction(async (tx) => {
      for (let n = 0; n < MESSAGES; n++) {
        await enqueue(tx, {
          channel: 'email',
          target: `reader${n}@example.com`,
          kind: 'notice',
          language: 'en',
          subject: `Notice ${n}`,
          body: `Message ${n}`,
        });
      }
    });
    const counts = async () =>
      rowsOf<{ status: string; n: number }>(
        await database.db.execute(sql`select status, count(*)::int as n from outbox group by status`),
      ).reduce<Record<string, number>>((all, { status, n }) => ({ ...all, [status]: Number(n) }), {});
    for (;;) {
      const { sent = 0, failed = 0 } = await counts();
      if (sent + failed === MESSAGES || Date.now() - started > 60_000) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const took = Date.now() - started;
    expect(await counts()).toEqual({ sent: MESSAGES });
    const received = mail.mails.flatMap((message) => message.to);
    expect(received).toHaveLength(MESSAGES);
    expect(new Set(received).size).toBe(MESSAGES);
    expect(mail.tries).toHaveLength(MESSAGES);
    console.log(`${MESSAGES} messages sent by two processes in ${took} ms`);
  });
});
