// A small HTTP proxy in front of the end-to-end server, for the price stream test: the page is opened
// through it, so the test can cut the live stream, refuse new ones, or accept one and then send
// nothing (a connection gone silent, which a browser route cannot fake), and can see which stream
// connections are open.
import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** `pass`: forward; `refuse`: drop new stream requests; `silent`: answer them 200 and send nothing. */
export type StreamMode = 'pass' | 'refuse' | 'silent';

export interface StreamProxy {
  base: string;
  mode: StreamMode;
  /** Stream connections open now (the browser's side). */
  readonly open: number;
  /** Every stream request seen: when, its query (`last=`) and when it closed (null: still open). */
  readonly requests: { at: number; url: string; mode: StreamMode; closedAt: number | null }[];
  /** Drops every stream connection open now (the network cuts them). */
  cut(): void;
  close(): Promise<void>;
}

const isStream = (url = '') => url.startsWith('/api/coin/stream');

export async function startStreamProxy(upstream: string): Promise<StreamProxy> {
  const target = new URL(upstream);
  const live = new Set<ServerResponse>();
  const requests: StreamProxy['requests'] = [];
  const proxy: StreamProxy = {
    base: '',
    mode: 'pass',
    get open() {
      return live.size;
    },
    requests,
    cut() {
      for (const response of live) response.destroy();
      live.clear();
    },
    close: () =>
      new Promise((resolve) => {
        proxy.cut();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const stream = isStream(incoming.url);
    if (stream) {
      const seen = { at: Date.now(), url: incoming.url ?? '', mode: proxy.mode, closedAt: null as number | null };
      requests.push(seen);
      outgoing.on('close', () => {
        seen.closedAt = Date.now();
        live.delete(outgoing);
      });
      if (proxy.mode === 'refuse') return void outgoing.destroy();
      live.add(outgoing);
      if (proxy.mode === 'silent') {
        outgoing.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
        outgoing.flushHeaders();
        return; // and never a byte more
      }
    }
    const upstreamRequest = forward(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: target.host },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
        outgoing.on('close', () => answer.destroy());
      },
    );
    upstreamRequest.on('error', () => outgoing.destroy());
    outgoing.on('close', () => upstreamRequest.destroy());
    incoming.pipe(upstreamRequest);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}

/** The price stream read from Node straight from the server: every step's id, in the order sent. */
export function referenceStream(base: string): { ids: number[]; stop(): void } {
  const ids: number[] = [];
  const controller = new AbortController();
  void (async () => {
    const response = await fetch(`${base}/api/coin/stream`, { signal: controller.signal });
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const id = event.match(/^id: (\d+)$/m)?.[1];
        if (id && /^event: ticks$/m.test(event)) ids.push(Number(id));
      }
    }
  })().catch(() => undefined);
  return { ids, stop: () => controller.abort() };
}
