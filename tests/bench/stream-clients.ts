// The stream bench's clients, in a process of their own (so that 10,000 of them and the server's
// 10,000 sockets each stay within one process's open-file limit): connects them in batches (a
// burst of 10,000 connects overflows the listen backlog), then notes when each step reaches each
// client. Usage (from stream.ts): tsx stream-clients.ts <port> <path> <clients>, with an IPC channel.
import { request } from 'node:http';

const [port, path, count] = [Number(process.argv[2]), process.argv[3]!, Number(process.argv[4])];
const BATCH = 250;
const arrivals: number[] = [];
const closers: (() => void)[] = [];

const connect = () =>
  new Promise<void>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let first = true;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (first) {
          first = false;
          return resolve();
        }
        if (chunk.includes('event: ticks')) arrivals.push(Date.now());
      });
    });
    req.on('error', reject);
    req.end();
    closers.push(() => req.destroy());
  });

for (let start = 0; start < count; start += BATCH) await Promise.all(Array.from({ length: Math.min(BATCH, count - start) }, connect));
process.send!({ type: 'connected' });
process.on('message', (message: { type: string }) => {
  if (message.type !== 'report') return;
  process.send!({ type: 'arrivals', arrivals }, () => {
    for (const close of closers) close();
    process.exit(0);
  });
});
