// WORKERS=N: one scrape of any worker shows every process. The worker that got the scrape asks the
// supervisor over the cluster's IPC channel; the supervisor (workers.ts) asks every worker for its
// metrics (prom-client's AggregatorRegistry, which the workers answer: metrics.ts), combines them by
// each metric's aggregator and sends the text back. A single process answers from its own registry.
import cluster from 'node:cluster';
import { METRICS_ANSWER as ANSWER, METRICS_ASK as ASK } from '../workers.ts';
import { registry } from './metrics.ts';

/** A supervisor not answering within this (a worker hung) fails the scrape rather than holding it. */
const ASK_TIMEOUT_MS = 8_000;

interface Answer {
  type: typeof ANSWER;
  id: number;
  text?: string;
  error?: string;
}

let asked = 0;
const waiting = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void }>();

/** A worker's side: the metrics of every process, through the supervisor. */
function askSupervisor(): Promise<string> {
  if (!waiting.size) process.on('message', onAnswer);
  const id = ++asked;
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => settle(new Error('the supervisor did not answer')), ASK_TIMEOUT_MS);
    const settle = (result: string | Error) => {
      clearTimeout(timer);
      waiting.delete(id);
      if (!waiting.size) process.off('message', onAnswer);
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    waiting.set(id, { resolve: settle, reject: settle });
    process.send!({ type: ASK, id });
  });
}

function onAnswer(message: Answer) {
  if (message?.type !== ANSWER) return;
  const asker = waiting.get(message.id);
  if (!asker) return;
  if (message.error !== undefined) asker.reject(new Error(message.error));
  else asker.resolve(message.text ?? '');
}

/** The metrics text a scrape of this process answers: every worker's when it is one, else its own. */
export const metricsText = (): Promise<string> =>
  cluster.isWorker && process.send ? askSupervisor() : registry.metrics();

export const METRICS_CONTENT_TYPE = registry.contentType;
