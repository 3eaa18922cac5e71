// The stream bench's clients, in a process of their own (so that 10,000 of them and the server's
// 10,000 sockets each stay within one process's open-file limit): plain sockets speaking HTTP/1.1,
// read into one shared buffer (net's `onread`) so the clients' own work stays small next to the
// server's, connected in batches (a burst of 10,000 connects overflows the listen backlog). Each
// notes when every step's event reaches it, by the event's id. Usage (from stream.ts, forked with an
// IPC channel): stream-clients.ts <port> <path> <clients>; `report` answers each client's deliveries:
// the step ids in the order they came, and when each came.
import { connect } from 'node:net';

const [port, path, count] = [Number(process.argv[2]), process.argv[3]!, Number(process.argv[4])];
const BATCH = 250;
const ID = Buffer.from('id: ');
const TICKS = Buffer.from('\nevent: ticks\n');
const EVENT_END = Buffer.from('\n\n');
const READ_BUFFER = Buffer.alloc(256 * 1024);

interface Client {
  /** Step ids as they arrived, and when. */
  ids: number[];
  times: number[];
  close(): void;
}
const clients: Client[] = [];

const open = () =>
  new Promise<void>((resolve, reject) => {
    const client: Client = { ids: [], times: [], close: () => socket.destroy() };
    let rest: Buffer | null = null;
    let answered = false;
    const onData = (read: Buffer) => {
      const at = Date.now();
      if (!answered) {
        answered = true;
        if (!read.toString('latin1').startsWith('HTTP/1.1 200'))
          return reject(new Error(`the stream answered ${read.toString('latin1', 0, 40)}`));
        clients.push(client);
        resolve();
      }
      // Whole events only (an event cut by a full read waits for its end); the chunked encoding's
      // size lines between them do not matter here.
      const data = rest ? Buffer.concat([rest, read]) : read;
      const end = data.lastIndexOf(EVENT_END) + 2;
      rest = end < 2 ? Buffer.from(data) : data.length - end > 2 ? Buffer.from(data.subarray(end)) : null;
      for (let from = data.indexOf(ID); from >= 0 && from < end; from = data.indexOf(ID, from + ID.length)) {
        let id = 0;
        let cursor = from + ID.length;
        for (let byte = data[cursor]!; byte >= 48 && byte <= 57; byte = data[++cursor]!) id = id * 10 + byte - 48;
        if (data.indexOf(TICKS, cursor) !== cursor) continue;
        client.ids.push(id);
        client.times.push(at);
      }
    };
    // Read into one shared buffer, handled at once (no stream machinery): this process must not be the bottleneck.
    const callback = (length: number) => {
      onData(READ_BUFFER.subarray(0, length));
      return true;
    };
    const socket = connect({ host: '127.0.0.1', port, onread: { buffer: READ_BUFFER, callback } }, () =>
      socket.write(`GET ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\naccept: text/event-stream\r\n\r\n`),
    );
    socket.on('error', (error) =>
      answered ? console.error(`a stream client failed: ${error.message}`) : reject(error),
    );
  });

const started = Date.now();
for (let start = 0; start < count; start += BATCH)
  await Promise.all(Array.from({ length: Math.min(BATCH, count - start) }, open));
process.send!({ type: 'connected', ms: Date.now() - started });

process.on('message', (message: { type: string }) => {
  if (message.type !== 'report') return;
  const deliveries = clients.map((client) => [client.ids, client.times]);
  process.send!({ type: 'report', deliveries }, () => {
    for (const client of clients) client.close();
    process.disconnect();
  });
});
