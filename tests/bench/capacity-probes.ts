// What the capacity bench (capacity.ts) reads besides the answers its customers get: latency
// histograms that the load generators fill and the bench merges, the CPU time and open files of
// processes from /proc (server, PostgreSQL, generators), the whole machine's CPU, and the server's
// /metrics text.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

/** Milliseconds in buckets: 0.1 ms wide below 100 ms, 1 ms below 10 s, 100 ms up to 2 min (above: the last bucket). */
const FINE = 1_000;
const MEDIUM = FINE + 9_900;
const SIZE = MEDIUM + 1_100 + 1;

const bucketOf = (ms: number) =>
  ms < 100
    ? Math.max(0, Math.floor(ms * 10))
    : ms < 10_000
      ? FINE + Math.floor(ms - 100)
      : Math.min(SIZE - 1, MEDIUM + Math.floor((ms - 10_000) / 100));
const middleOf = (bucket: number) =>
  bucket < FINE
    ? (bucket + 0.5) / 10
    : bucket < MEDIUM
      ? 100 + bucket - FINE + 0.5
      : 10_000 + (bucket - MEDIUM + 0.5) * 100;

/** A histogram as sent between processes (structured clone keeps the typed array). */
export interface HistogramData {
  counts: Uint32Array;
  n: number;
  max: number;
  /** The samples' sum, for their mean. */
  sum: number;
}

/** Latencies in milliseconds, kept in fixed buckets: a million samples cost no more than ten. */
export class Histogram implements HistogramData {
  counts = new Uint32Array(SIZE);
  n = 0;
  max = 0;
  sum = 0;

  static of(data: HistogramData): Histogram {
    const histogram = new Histogram();
    histogram.merge(data);
    return histogram;
  }

  add(ms: number) {
    this.counts[bucketOf(ms)]! += 1;
    this.n += 1;
    this.sum += ms;
    if (ms > this.max) this.max = ms;
  }

  merge(other: HistogramData) {
    for (let i = 0; i < SIZE; i++) this.counts[i]! += other.counts[i]!;
    this.n += other.n;
    this.sum += other.sum;
    this.max = Math.max(this.max, other.max);
  }

  /** The value at quantile `q` (0.5, 0.99), or null without samples. */
  quantile(q: number): number | null {
    if (!this.n) return null;
    const rank = Math.ceil(q * this.n);
    let seen = 0;
    for (let i = 0; i < SIZE; i++) {
      seen += this.counts[i]!;
      if (seen >= rank) return Math.min(middleOf(i), this.max);
    }
    return this.max;
  }

  data(): HistogramData {
    return { counts: this.counts, n: this.n, max: this.max, sum: this.sum };
  }
}

/** "12 ms", "0.4 ms", "1.9 s", or "–" without a value. */
export function ms(value: number | null): string {
  if (value === null) return '–';
  if (value >= 1_000) return `${(value / 1000).toFixed(1)} s`;
  return value < 10 ? `${value.toFixed(1)} ms` : `${value.toFixed(0)} ms`;
}

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** The fields of /proc/<pid>/stat after the command's name (which may hold spaces): [0] state, [1] parent, [11] user
 * time, [12] system time. */
function statFields(pid: number): string[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** CPU seconds a process has used (user and system), or null once it is gone. */
export function cpuSeconds(pid: number): number | null {
  const fields = statFields(pid);
  return fields ? (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS : null;
}

/** A process's command name ('node', 'postgres', 'haproxy'), or '' once it is gone. */
export function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

const pids = () =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);

/** The processes whose parent is `pid`. */
export function childrenOf(pid: number): number[] {
  return pids().filter((child) => statFields(child)?.[1] === String(pid));
}

/** The PostgreSQL postmaster listening on `port` of this machine (its command line says `-p <port>`), or null. */
export function postmasterOn(port: number): number | null {
  for (const pid of pids()) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (!args[0]?.endsWith('/postgres')) continue;
      const at = args.indexOf('-p');
      if (at >= 0 && args[at + 1] === String(port)) return pid;
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return null;
}

/** The whole machine's CPU seconds: busy (everything but idle and I/O wait) and in all, summed over the cores. */
export function machineCpu(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const values = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = values.reduce((sum, value) => sum + value, 0);
  const idle = values[3]! + values[4]!;
  return { busy: (total - idle) / CLOCK_TICKS, total: total / CLOCK_TICKS };
}

/** How many files a process has open, and its limit (the soft one); null once it is gone. */
export function openFiles(pid: number): { open: number; max: number } | null {
  try {
    const open = readdirSync(`/proc/${pid}/fd`).length;
    const limits = readFileSync(`/proc/${pid}/limits`, 'utf8').match(/Max open files\s+(\d+|unlimited)/);
    return { open, max: limits?.[1] === 'unlimited' ? Infinity : Number(limits?.[1] ?? Infinity) };
  } catch {
    return null;
  }
}

/** This process's open-file limits (soft and hard). */
export function fileLimits(): { soft: number; hard: number } {
  const match = readFileSync('/proc/self/limits', 'utf8').match(/Max open files\s+(\S+)\s+(\S+)/);
  const value = (text: string | undefined) => (text === 'unlimited' || !text ? Infinity : Number(text));
  return { soft: value(match?.[1]), hard: value(match?.[2]) };
}

/** One sample of a /metrics answer. */
export interface Sample {
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text answer, by metric name (histogram series under their own _sum, _count names). */
export function parseMetrics(text: string): Map<string, Sample[]> {
  const metrics = new Map<string, Sample[]>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = line.match(/^([A-Za-z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const label of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[label[1]!] = label[2]!;
    const samples = metrics.get(match[1]!) ?? [];
    samples.push({ labels, value: Number(match[3]) });
    metrics.set(match[1]!, samples);
  }
  return metrics;
}

/** The sum of a metric's samples that carry `labels` (all of them without), or null when it has none. */
export function total(metrics: Map<string, Sample[]>, name: string, labels: Record<string, string> = {}) {
  const samples = (metrics.get(name) ?? []).filter((sample) =>
    Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  return samples.length ? samples.reduce((sum, sample) => sum + sample.value, 0) : null;
}

/** A per-process metric's value by the `pid` label (a single process without it: under ''). */
export function byPid(metrics: Map<string, Sample[]>, name: string): Map<string, number> {
  return new Map((metrics.get(name) ?? []).map((sample) => [sample.labels.pid ?? '', sample.value]));
}
