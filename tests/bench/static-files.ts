// What the server's CPU spends on each hashed file a first visit and the service worker's precache fetch (some 420
// scripts and stylesheets): the built app (dist/, built first if missing) on a server started as the end-to-end tests
// start one, the files fetched six at a time with `accept-encoding: br, gzip` as Chromium asks, three rounds of two
// passes, the server's own CPU time (its /proc stat) net of what it spends idle over as long a time. Beside it, in the
// same run, the same number of requests the file server answers (the files' `.br` forms asked by name, which the
// server does not hold in memory): the cost of a file before the hashed files were held in memory.
import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { calibrationText } from '../machine-calibration.ts';
import { startServer } from '../server/server-process.ts';

const PARALLEL = 6;
const ROUNDS = 3;

/** The CPU time a process has used so far, in ms (user and system; /proc's clock ticks are 10 ms here). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Fetches every path once, PARALLEL at a time, reading each body whole. */
async function fetchAll(base: string, paths: string[]): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < paths.length) {
        const response = await fetch(base + paths[next++]!, { headers: { 'accept-encoding': 'br, gzip' } });
        if (!response.ok) throw new Error(`${response.url}: ${response.status}`);
        await response.arrayBuffer();
      }
    }),
  );
}

/** The server's CPU a request for `paths`, net of its idle work, in ms: one figure a round. */
async function perRequest(pid: number, base: string, paths: string[]): Promise<number[]> {
  await fetchAll(base, paths);
  const figures: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const [cpu, wall] = [cpuMs(pid), Date.now()];
    await fetchAll(base, paths);
    await fetchAll(base, paths);
    const used = cpuMs(pid) - cpu;
    const elapsed = Date.now() - wall;
    const idleFrom = cpuMs(pid);
    await new Promise((resolve) => setTimeout(resolve, elapsed));
    figures.push((used - (cpuMs(pid) - idleFrom)) / (paths.length * 2));
  }
  return figures;
}

export async function staticFilesBench(): Promise<void> {
  if (!existsSync('dist/index.html')) execSync('node_modules/.bin/vite build', { stdio: 'inherit' });
  const webRoot = join(process.cwd(), 'dist');
  const names = readdirSync(join(webRoot, 'assets'));
  const hashed = names.filter((name) => /\.(js|css)$/.test(name)).map((name) => `/assets/${name}`);
  const byFileServer = names.filter((name) => name.endsWith('.br')).map((name) => `/assets/${name}`);
  const work = mkdtempSync(join(tmpdir(), 'coinvest-static-bench-'));
  const server = await startServer({
    work,
    env: { DATABASE_URL: '', DATA_DIR: join(work, 'data'), WEB_ROOT: webRoot, LOG_LEVEL: 'warn' },
  });
  try {
    const pid = server.child.pid!;
    const figures = (values: number[]) => values.map((value) => `${value.toFixed(2)} ms`).join(', ');
    console.log(`\nHashed files: the server's CPU a file (${hashed.length} files, ${PARALLEL} at a time, br/gzip)`);
    console.log(`  ${calibrationText()}`);
    console.log(`  held in memory:         ${figures(await perRequest(pid, server.base, hashed))}`);
    const sample = byFileServer.slice(0, hashed.length);
    console.log(`  the file server (.br):  ${figures(await perRequest(pid, server.base, sample))}`);
  } finally {
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
