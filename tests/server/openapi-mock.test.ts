// The published document is enough to stand in for the server: Stoplight Prism, a mock built only from
// /api/openapi.json, serves the coin list with prices as decimal strings (from the examples every answer schema
// carries), so a client written against the document reads real-looking numbers, not "string".
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { declaredEndpoints } from '../../src/server/http/declared-endpoints.ts';
import { openApiDocument } from '../../src/server/http/openapi.ts';
import { DECIMAL, SIGNED_DECIMAL } from '../../src/api-contract/answers.ts';

let dir: string;
let mock: ChildProcess;
let base: string;

/** A port the system has just handed out on loopback (closed again for the mock to take). */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coinvest-prism-'));
  const file = join(dir, 'openapi.json');
  await writeFile(file, JSON.stringify(openApiDocument(await declaredEndpoints())));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  mock = spawn('node_modules/.bin/prism', ['mock', file, '--host', '127.0.0.1', '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  mock.stderr!.on('data', (chunk) => output.push(String(chunk)));
  // Ready when Prism says it listens (it prints each route first); an exit before that fails with what it printed.
  const listening = new Promise<void>((resolve, reject) => {
    createInterface({ input: mock.stdout! }).on('line', (line) => {
      output.push(line);
      if (line.includes('Prism is listening')) resolve();
    });
    mock.once('exit', (code) => reject(new Error(`prism exited (${code}) before listening:\n${output.join('\n')}`)));
  });
  await listening;
});

afterAll(async () => {
  if (mock && mock.exitCode === null) {
    mock.kill();
    await once(mock, 'exit');
  }
  await rm(dir, { recursive: true, force: true });
});

it('a mock made from the published document serves the coin list with decimal prices', async () => {
  // Prism serves the document's paths as written (the server's /api prefix is the `servers` entry).
  const response = await fetch(`${base}/coin/lists`);
  expect(response.status).toBe(200);
  const envelope = (await response.json()) as { ret: number; data: { lists: Record<string, unknown>[] } };
  expect(envelope.ret).toBe(1);
  const [coin] = envelope.data.lists;
  expect(coin).toBeDefined();
  for (const field of ['price', 'open_24h', 'high_24h', 'low_24h', 'volume_24h'])
    expect(coin![field], field).toMatch(DECIMAL);
  expect(coin!.change_24h).toMatch(SIGNED_DECIMAL);
  expect(Number.isFinite(Number(coin!.price))).toBe(true);
  expect(Date.parse(String(coin!.at))).not.toBeNaN();
});
