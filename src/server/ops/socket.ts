// The operator socket: a server holding the embedded database (one process per folder) runs the
// operator's commands for the CLI. A Unix socket in the data folder, readable by its owner only.
import { chmodSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { join, resolve } from 'node:path';

export interface OperatorAnswer {
  ok: boolean;
  output: string;
}

export const operatorSocketPath = (dataDir: string) => join(dataDir, 'ops.sock');

/** Where a command names a file (`picture <id> <file>`, `backup <file>`, `restore <file>`): the argument's index. */
const FILE_ARGUMENT: Readonly<Record<string, number>> = { picture: 2, backup: 1, restore: 1 };

/**
 * `argv` with the file a command names made a full path (from this process's folder): the server that runs the
 * command through the socket may run in another folder. A copy; a command that names no file comes back unchanged.
 */
export function withFullFilePath(argv: readonly string[]): string[] {
  const out = [...argv];
  const at = FILE_ARGUMENT[argv[0] ?? ''];
  if (at !== undefined && out[at]) out[at] = resolve(out[at]);
  return out;
}

const MAX_REQUEST_BYTES = 64 * 1024;

/** Listens for commands; resolves with a function that stops listening. */
export async function serveOperatorCommands(
  dataDir: string,
  run: (argv: string[]) => Promise<OperatorAnswer>,
): Promise<() => Promise<void>> {
  const path = operatorSocketPath(dataDir);
  // A socket file left by a crashed server: this process holds the folder's lock, so it is stale.
  rmSync(path, { force: true });
  const server = createServer((socket) => {
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (received.length > MAX_REQUEST_BYTES) return socket.destroy();
      const end = received.indexOf('\n');
      if (end < 0) return;
      const reply = (answer: OperatorAnswer) => socket.end(`${JSON.stringify(answer)}\n`);
      let argv: unknown;
      try {
        argv = (JSON.parse(received.slice(0, end)) as { argv?: unknown }).argv;
      } catch {
        argv = null;
      }
      if (!Array.isArray(argv) || !argv.every((arg) => typeof arg === 'string'))
        return reply({ ok: false, output: 'Unreadable command.' });
      run(argv).then(reply, (error: unknown) =>
        reply({ ok: false, output: `The command failed: ${error instanceof Error ? error.message : String(error)}` }),
      );
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  chmodSync(path, 0o600);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Sends one command to the server holding the database and waits for its answer. */
export function sendOperatorCommand(dataDir: string, argv: string[]): Promise<OperatorAnswer> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(operatorSocketPath(dataDir));
    let received = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify({ argv })}\n`));
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      try {
        resolve(JSON.parse(received) as OperatorAnswer);
      } catch {
        reject(new Error('The server sent no readable answer.'));
      }
    });
  });
}
