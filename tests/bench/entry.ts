// Time to entry: how long a customer waits between the answer that accepted an option and the first
// answer that shows its start price (the first tick recorded after the order), as the app sees it.
// A server process on the embedded database with the simulator at the real clock (one step a second);
// BENCH_ENTRY_ORDERS options (200 by default) placed by four customers at random moments, each order
// polled every 20 ms until it has opened (so a figure can be up to 20 ms late). Printed: p50, p99 and
// the worst, the same from the order's own times (start tick minus acceptance), and the machine's
// calibration (tests/machine-calibration.ts), since the figures depend on it.
import { calibrationText } from '../machine-calibration.ts';
import { randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../server/server-process.ts';

const ORDERS = Number(process.env.BENCH_ENTRY_ORDERS ?? 200);
const CUSTOMERS = 4;
const POLL_MS = 20;

type Answer<T> = { ret: number; msg: string; data: T };
interface Option {
  id: number;
  status: string;
  start_price: string | null;
  start_price_at: string | null;
  start_at: string;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;

export async function entryBench() {
  console.log(
    `\nTime to entry: ${ORDERS} options, accepted → start price shown (simulator, one step a second, polled every ${POLL_MS} ms)`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'coinvest-entry-'));
  const server = await startServer({
    work: dir,
    env: {
      NODE_ENV: 'development',
      DATA_DIR: join(dir, 'data'),
      DATABASE_URL: '',
      WEB_ROOT: '',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_ACCOUNT: '100000',
    },
  });
  try {
    const call = async <T>(path: string, token: string, fields?: Record<string, string>): Promise<Answer<T>> => {
      const response = await fetch(`${server.base}/api${path}`, {
        method: fields ? 'POST' : 'GET',
        headers: {
          lang: 'en',
          token,
          ...(fields
            ? { 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': crypto.randomUUID() }
            : {}),
        },
        body: fields ? new URLSearchParams(fields).toString() : undefined,
      });
      return response.json() as Promise<Answer<T>>;
    };
    const login = await call<{ token: string }>('/users/login', '', { username: 'demo', password: 'demo1234' });
    const token = login.data.token;
    const products = await call<{ lists: { id: number; code: string; minutes: number }[] }>(
      '/coin/option/products',
      token,
    );
    const oneMinute = products.data.lists.filter((product) => product.minutes === 1);

    const shown: number[] = [];
    const recorded: number[] = [];
    const customer = async (orders: number) => {
      for (let i = 0; i < orders; i++) {
        await new Promise((resolve) => setTimeout(resolve, randomInt(1000)));
        const product = oneMinute[randomInt(oneMinute.length)]!;
        const placed = await call<Option>('/coin/order/add', token, {
          code: product.code,
          direction: randomInt(2) ? 'up' : 'down',
          amount: '1',
          product_id: String(product.id),
        });
        if (placed.ret !== 1) throw new Error(`refused: ${placed.msg}`);
        const acceptedAt = performance.now();
        for (;;) {
          const order = (await call<Option>(`/coin/order/info?id=${placed.data.id}`, token)).data;
          if (order.start_price !== null) {
            shown.push(performance.now() - acceptedAt);
            recorded.push(Date.parse(order.start_price_at!) - Date.parse(order.start_at));
            break;
          }
          if (order.status !== 'opening') throw new Error(`order ${order.id} is ${order.status} without a start price`);
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        }
      }
    };
    await Promise.all(
      Array.from({ length: CUSTOMERS }, (_, i) =>
        customer(Math.floor(ORDERS / CUSTOMERS) + (i < ORDERS % CUSTOMERS ? 1 : 0)),
      ),
    );
    const line = (label: string, values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      console.log(
        `  ${label}: p50 ${quantile(sorted, 0.5).toFixed(0)} ms, p99 ${quantile(sorted, 0.99).toFixed(0)} ms, worst ${sorted.at(-1)!.toFixed(0)} ms (${sorted.length} orders)`,
      );
    };
    line('accepted → start price shown to the customer', shown);
    line("start tick's time − acceptance time (the rule's own wait)", recorded);
    console.log(`  calibration, ${calibrationText()}`);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
