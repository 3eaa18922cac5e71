// `npm test`: every check and every suite.
//   1. the catalogs' extraction (the build compiles them);
//   2. at once: the type check, the lint, the build, and the unit, server and PostgreSQL suites (the checks
//      and the build take a core each for a minute or so, beside the suites' two files at a time);
//   3. the end-to-end files, two at a time, once the build is there and the two hosts' file (it changes the machine's
//      network, which aborts a browser's requests) has run, beside the suites (2–3 minutes less
//      on 2 cores than after them; the tests wait for events, not for a time, so a busy machine only
//      makes them slower);
//   4. once the suites are done too, two at a time, the end-to-end files that time their own servers (vitest
//      project `e2e-after`: much of their time is spent waiting on their servers' starts, which two share well); last
//      and alone, those that time the app (`e2e-alone`).
// After a failure no step starts; the ones running finish, so their failures are printed too. One step's
// output is shown as it comes; the others' are held and printed whole when that step ends, then the next
// one running is shown live. It ends with each step's times and the ten slowest test files over all runs
// (tests/slowest-reporter.ts), then, for a step that failed, its failures again: a log cut to its last
// lines (as CI shows it) still says which test failed. Beside the times, what the machine did: how busy its
// cores were over the run and how fast one of them is (a calibration taken before the first step), so a
// slow or busy machine is told apart from a slow run, and the CPU time each step took (its processes and theirs),
// so the run's time can be put down to the work that takes it.
import { spawn } from 'node:child_process';
import { cpus } from 'node:os';
import { calibrationText } from './machine-calibration.ts';
import { compileCacheEnv } from './compile-cache.ts';

interface Step {
  name: string;
  command: string;
  args: string[];
  /** The steps that must have passed first. */
  after: string[];
}

const vitest = (...projects: string[]) => ['run', ...projects.flatMap((project) => ['--project', project])];
const STEPS: Step[] = [
  { name: 'catalogs', command: 'lingui', args: ['extract'], after: [] },
  { name: 'typecheck', command: 'npm', args: ['run', '--silent', 'typecheck'], after: ['catalogs'] },
  { name: 'lint', command: 'npm', args: ['run', '--silent', 'lint'], after: ['catalogs'] },
  { name: 'build', command: 'vite', args: ['build'], after: ['catalogs'] },
  { name: 'suites', command: 'vitest', args: vitest('unit', 'server', 'server-pg'), after: ['catalogs'] },
  // Before any browser starts: its network namespaces would abort the browsers' requests (tests/projects.ts).
  { name: 'hosts', command: 'vitest', args: vitest('hosts'), after: ['catalogs'] },
  { name: 'e2e', command: 'vitest', args: vitest('e2e'), after: ['build', 'hosts'] },
  {
    name: 'e2e-after',
    command: 'vitest',
    args: vitest('e2e-after', 'e2e-alone'),
    after: ['typecheck', 'lint', 'suites', 'e2e'],
  },
];

interface Running {
  step: Step;
  /**
   * All it printed: held while another step has the screen (a step takes it only once, and keeps it until it ends, so
   * all of it), and read again for the failures repeated at the end.
   */
  printed: string[];
  startedAt: number;
  /** The core-seconds its processes used, told by the shell that ran it once it ended (`times`). */
  cpu: number | null;
}

const FAILURE_LINES = 80;
/** A failed step's failures: vitest's "Failed Tests" part when there is one, else its last lines. */
function failures(printed: string): string {
  // eslint-disable-next-line no-control-regex
  const lines = printed.replace(/\x1b\[[0-9;]*m/g, '').split('\n');
  const from = lines.findIndex((line) => /⎯ Failed (Suites?|Tests?) \d+ ⎯/.test(line));
  const part = from >= 0 ? lines.slice(from) : lines.slice(-FAILURE_LINES);
  const named = part.filter((line) => /^\s*FAIL\s/.test(line));
  const kept = part.slice(0, FAILURE_LINES);
  const more =
    part.length > kept.length ? `… ${part.length - kept.length} more lines, in the step's output above\n` : '';
  return `${named.length > 1 ? `${named.join('\n')}\n\n` : ''}${kept.join('\n')}\n${more}`;
}

/** The CPU time of all the machine's cores so far, in ms (every process, not only this run's): busy, and in all. */
function machineTime(): { busy: number; all: number } {
  let busy = 0;
  let all = 0;
  for (const { times } of cpus()) {
    const used = times.user + times.nice + times.sys + times.irq;
    busy += used;
    all += used + times.idle;
  }
  return { busy, all };
}

/**
 * A step runs under `sh`, whose `times` tells on fd 3 the CPU time of every process the step started and waited for:
 * its own, its workers', the browsers' and servers' it started. A daemon that left its parent (PostgreSQL started by
 * pg_ctl) is not in it: the machine's total minus the steps' shows such work.
 */
const TIMED = '"$@"; code=$?; times >&3; exit $code';

/** The children's user and system seconds from `times` (its second line, as `0m1.23s 0m0.45s`). */
function childrenCpu(told: string): number | null {
  const line = told.trim().split('\n')[1];
  const parts = [...(line ?? '').matchAll(/(\d+)m([\d.]+)s/g)];
  if (parts.length !== 2) return null;
  return parts.reduce((sum, [, minutes, secs]) => sum + Number(minutes) * 60 + Number(secs), 0);
}

const calibration = calibrationText();
const machineAtStart = machineTime();
const began = Date.now();
const seconds = (ms: number) => `${(ms / 1000).toFixed(0)} s`;
const passed = new Set<string>();
const timeline: string[] = [];
const running: Running[] = [];
let failed: string[] = [];
const failureReports: string[] = [];
let live: Running | null = null;
/** The core-seconds the ended steps took, for what the machine did besides them. */
let stepsCpu = 0;

function show(run: Running, text: string) {
  run.printed.push(text);
  if (live === run) process.stdout.write(text);
}

/** The oldest running step takes the screen: what it held first, then what comes. */
function nextLive() {
  live = running[0] ?? null;
  if (!live) return;
  process.stdout.write(
    `\n── ${live.step.name} (running since ${seconds(live.startedAt - began)}) ──\n${live.printed.join('')}`,
  );
}

function start(step: Step) {
  const run: Running = { step, printed: [], startedAt: Date.now(), cpu: null };
  running.push(run);
  if (!live) nextLive();
  // The runs of one `npm test` share a key: the slowest-files table covers all of them.
  const child = spawn('sh', ['-c', TIMED, 'sh', step.command, ...step.args], {
    env: { ...process.env, ...compileCacheEnv(), TEST_RUN_KEY: `npm-test:${process.pid}` },
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  let told = '';
  child.stdio[3]!.on('data', (chunk: Buffer) => (told += chunk.toString()));
  child.stdio[3]!.on('end', () => (run.cpu = childrenCpu(told)));
  child.stdout!.on('data', (chunk: Buffer) => show(run, chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => show(run, chunk.toString()));
  child.on('error', (error) => show(run, `${step.command}: ${error.message}\n`));
  child.on('close', (code) => {
    const ended = Date.now();
    running.splice(running.indexOf(run), 1);
    if (code === 0) passed.add(step.name);
    else {
      failed = [...failed, step.name];
      failureReports.push(`\n── what failed in ${step.name} ──\n${failures(run.printed.join(''))}`);
    }
    const cpu = run.cpu === null ? '' : `, CPU ${run.cpu.toFixed(0)} s`;
    stepsCpu += run.cpu ?? 0;
    timeline.push(
      `  ${step.name.padEnd(10)} ${seconds(run.startedAt - began).padStart(6)} → ${seconds(ended - began).padStart(6)}  ${code === 0 ? 'passed' : `FAILED (exit ${code})`}${cpu}`,
    );
    if (live === run) nextLive();
    else
      process.stdout.write(
        `\n── ${step.name} (${seconds(run.startedAt - began)} → ${seconds(ended - began)}) ──\n${run.printed.join('')}`,
      );
    startReady();
  });
}

/**
 * How busy the machine's cores were over the run, and the shortest time that much work takes on them: a run
 * whose cores were busy throughout is short of CPU, not waiting.
 */
function machineLine(): string {
  const now = machineTime();
  const cores = cpus().length;
  const busy = (now.busy - machineAtStart.busy) / 1000;
  const all = (now.all - machineAtStart.all) / 1000;
  return (
    `  machine: ${cores} cores, busy ${((100 * busy) / all).toFixed(0)} % (${busy.toFixed(0)} of ${all.toFixed(0)} core-seconds, every process): ` +
    `that work takes ${seconds((1000 * busy) / cores)} on them at the least; before the first step, ${calibration}\n` +
    `  of it, the steps ${stepsCpu.toFixed(0)} core-seconds; besides them ${Math.max(0, busy - stepsCpu).toFixed(0)} ` +
    `(mostly the end-to-end step's browsers, whose processes outlive the worker that started them; then PostgreSQL's daemons, the system, anything else running)`
  );
}

const waiting = [...STEPS];
function startReady() {
  if (failed.length === 0) {
    for (const step of waiting.filter((candidate) => candidate.after.every((name) => passed.has(name)))) {
      waiting.splice(waiting.indexOf(step), 1);
      start(step);
    }
  }
  if (running.length > 0) return;
  const skipped = failed.length ? waiting.map((step) => step.name) : [];
  process.stdout.write(
    `\nnpm test, ${seconds(Date.now() - began)} in all:\n${timeline.join('\n')}\n${machineLine()}\n`,
  );
  if (skipped.length) process.stdout.write(`  not started after the failure: ${skipped.join(', ')}\n`);
  for (const report of failureReports) process.stdout.write(report);
  process.exitCode = failed.length ? 1 : 0;
}

startReady();
