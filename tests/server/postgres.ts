// A throwaway PostgreSQL cluster for tests: Debian's binaries (apt-get install postgresql; .ci/run
// does it), a fresh data folder in /tmp, a free port on loopback, fsync off. Started in ~2 s and
// removed again by stop(). As root, the cluster runs as the `postgres` user (initdb refuses root).
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface PostgresCluster {
  /** postgres://postgres@127.0.0.1:<port>/<database> */
  url(database?: string): string;
  /** Creates an empty database; resolves to its url. */
  createDatabase(name: string): Promise<string>;
  port: number;
  /** The url of `database` over the cluster's Unix socket (a server on the same machine, without TCP). */
  socketUrl(database: string): string;
  stop(): Promise<void>;
}

export function postgresBinaries(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const version = readdirSync(root).sort((a, b) => Number(b) - Number(a))[0];
  const bin = version ? join(root, version, 'bin') : null;
  return bin && existsSync(join(bin, 'initdb')) ? bin : null;
}

/** A free TCP port on loopback, for the throwaway cluster and for the servers the e2e tests and benches start. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });

export interface PostgresOptions {
  /** Addresses it listens on beside loopback (a network namespace's way in: the root side of its veth pair). */
  listen?: string[];
  /** Client networks (CIDR, e.g. 10.47.0.2/32) let in without a password, beside loopback. */
  trust?: string[];
  /** More server settings (`name=value`), each passed as `-c name=value`. */
  settings?: string[];
}

export async function startPostgres({
  listen = [],
  trust = [],
  settings = [],
}: PostgresOptions = {}): Promise<PostgresCluster> {
  const bin = postgresBinaries();
  if (!bin)
    throw new Error('PostgreSQL is not installed: apt-get install -y postgresql (the server tests run on it too).');
  const dir = mkdtempSync(join(tmpdir(), 'coinvest-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const run = (command: string, args: string[]) => {
    const [file, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(bin, command), ...args]]
      : [join(bin, command), args];
    const result = spawnSync(file, argv, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr || result.stdout}`);
  };
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale']);
  if (trust.length)
    appendFileSync(join(data, 'pg_hba.conf'), trust.map((network) => `host all all ${network} trust\n`).join(''));
  const port = await freePort();
  run('pg_ctl', [
    '-D',
    data,
    '-l',
    join(dir, 'log'),
    '-w',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=${['127.0.0.1', ...listen].join(',')} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300${settings.map((setting) => ` -c ${setting}`).join('')}`,
    'start',
  ]);
  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return {
    port,
    url,
    socketUrl: (database) => `postgres:///${database}?user=postgres&host=${encodeURIComponent(dir)}&port=${port}`,
    async createDatabase(name) {
      const admin = new pg.Client({ connectionString: url() });
      await admin.connect();
      try {
        await admin.query(`create database ${name}`);
      } finally {
        await admin.end();
      }
      return url(name);
    },
    async stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
