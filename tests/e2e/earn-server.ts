// A server of its own for the earn journeys: interest days pass in seconds. Its test clock runs so
// fast that one interest day (Asia/Bangkok) lasts `secondsPerDay` real seconds, and it starts
// `leadSeconds` of simulated time before a day ends, so a test sees a day end soon after starting.
// Fresh embedded database, the built PWA, the demo account; the operator command reaches it through
// its data folder like the shared end-to-end server.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { startServer } from '../server/server-process.ts';
import { operatorOn } from './operator.ts';
import { dayEnd } from '../../src/server/domain/earn-days.ts';
import { interestDay } from '../../src/api-contract/earn-days.ts';

const TIME_ZONE = 'Asia/Bangkok';
const DAY_MS = 86_400_000;

export interface EarnServer {
  baseUrl: string;
  dataDir: string;
  /** Real milliseconds one interest day lasts. */
  dayMs: number;
  /** `npm run ops -- <args>` against this server. */
  operator(...args: string[]): Promise<string>;
  stop(): Promise<void>;
}

export async function startEarnServer({ secondsPerDay = 12, leadSeconds = 60 } = {}): Promise<EarnServer> {
  const speed = DAY_MS / (secondsPerDay * 1000);
  // The accelerated clock reads origin + (now − origin) × speed: an origin in the past puts the
  // server's "now" ahead. Choose it so the server starts `leadSeconds` before the current day ends.
  const realNow = Date.now();
  const target = dayEnd(interestDay(new Date(realNow), TIME_ZONE), TIME_ZONE).getTime() - leadSeconds * 1000;
  const origin = Math.round(realNow - (target - realNow) / (speed - 1));

  const work = mkdtempSync(join(tmpdir(), 'coinvest-earn-'));
  const dataDir = join(work, 'data');
  const server = await startServer({
    work,
    name: 'earn server',
    env: {
      DATA_DIR: dataDir,
      WEB_ROOT: inject('webRoot'),
      AUTH_RATE_LIMIT: '1000',
      CLOCK_SPEED: String(speed),
      CLOCK_ORIGIN: String(origin),
      // Earn needs no fast prices: a market step every half second keeps a small machine free.
      FEED_INTERVAL_MS: '500',
      EARN_TIMEZONE: TIME_ZONE,
      // Days pass in seconds here: a session must not end (30 days unused, 180 at most) in the middle of a test.
      SESSION_IDLE_DAYS: '3650',
      SESSION_MAX_DAYS: '3650',
      LOG_LEVEL: 'warn',
    },
  });

  return {
    baseUrl: server.base,
    dataDir,
    dayMs: secondsPerDay * 1000,
    operator: operatorOn(dataDir),
    stop: () => server.stop(),
  };
}
