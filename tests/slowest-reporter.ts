// Prints the ten slowest test files when a vitest run ends (project, file, seconds: the file's
// environment, setup, import and tests). `npm test` runs vitest three times (tests/run.ts: the unit,
// server and server-pg suites; the end-to-end files, beside them; the timed end-to-end files): each
// run keeps its files' durations in test-results/durations/<its projects>.json under its invocation's
// key (TEST_RUN_KEY, else the script's name and its parent process), so a run prints the ten slowest
// over every run of its invocation so far. Each run writes a file of its own (two runs may end at
// once); a file of another invocation is left out, never mixed in.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

interface FileDuration {
  project: string;
  file: string;
  seconds: number;
}

interface Kept {
  key: string;
  /** This run's projects. */
  projects: string[];
  files: FileDuration[];
  /** When it ended (ms since the epoch): the runs are listed in that order. */
  endedAt: number;
}

const KEPT = join('test-results', 'durations');
const SHOWN = 10;

function readKept(folder: string, key: string): Kept[] {
  let names: string[] = [];
  try {
    names = readdirSync(folder).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  return names
    .flatMap((name) => {
      try {
        const kept = JSON.parse(readFileSync(join(folder, name), 'utf8')) as Kept;
        return kept.key === key && Array.isArray(kept.projects) && Array.isArray(kept.files) ? [kept] : [];
      } catch {
        return [];
      }
    })
    .sort((a, b) => a.endedAt - b.endedAt);
}

export default class SlowestReporter implements Reporter {
  private root = process.cwd();

  onInit(vitest: Vitest) {
    this.root = vitest.config.root;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const files = testModules.map((module): FileDuration => {
      const d = module.diagnostic();
      const ms = d.environmentSetupDuration + d.prepareDuration + d.setupDuration + d.collectDuration + d.duration;
      return {
        project: module.project.name,
        file: relative(this.root, module.moduleId),
        seconds: Math.round(ms / 100) / 10,
      };
    });
    if (!files.length) return;
    const projects = [...new Set(files.map((file) => file.project))].sort();
    const key = process.env.TEST_RUN_KEY ?? `${process.env.npm_lifecycle_event ?? ''}:${process.ppid}`;
    const folder = join(this.root, KEPT);
    const own: Kept = { key, projects, files, endedAt: Date.now() };
    try {
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, `${projects.join('+')}.json`), `${JSON.stringify(own, null, 1)}\n`);
    } catch {
      // Only the printout below is lost across runs.
    }
    // A project run again under the same key (a script that runs it twice) counts once: its latest run.
    const runs = [
      ...readKept(folder, key).filter(
        (run) => run.endedAt < own.endedAt && !run.projects.some((name) => projects.includes(name)),
      ),
      own,
    ];
    const all = runs.flatMap((run) => run.files);
    const slowest = [...all].sort((a, b) => b.seconds - a.seconds).slice(0, SHOWN);
    const over = runs.map((run) => run.projects.join(', ')).join(' + ');
    const width = Math.max(...slowest.map((file) => file.project.length));
    const lines = slowest.map(
      (file) => `  ${file.seconds.toFixed(1).padStart(7)} s  ${file.project.padEnd(width)}  ${file.file}`,
    );
    const named =
      runs.length === 1
        ? 'this run'
        : `${runs.length} runs of this npm ${process.env.npm_lifecycle_event ?? 'invocation'}`;
    console.log(
      `\nSlowest test files, ${slowest.length} of ${all.length} (over ${named}: ${over}):\n${lines.join('\n')}\n`,
    );
  }
}
