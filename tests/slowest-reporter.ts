// Prints the ten slowest test files when a vitest run ends (project, file, seconds: the file's
// environment, setup, import and tests). `npm test` runs vitest twice (unit, server and server-pg,
// then e2e after the build): each run keeps its files' durations in test-results/durations.json,
// under a key both runs of one `npm test` share (the script's name and the shell npm runs it in,
// their parent), so the second run prints the ten slowest over both. A file left by another
// invocation has another key and is replaced, never mixed in.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

interface FileDuration {
  project: string;
  file: string;
  seconds: number;
}

interface Kept {
  key: string;
  /** The projects of each run covered so far, in order. */
  runs: string[][];
  files: FileDuration[];
}

const KEPT = join('test-results', 'durations.json');
const SHOWN = 10;

function readKept(file: string, key: string): Kept | null {
  try {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as Kept;
    return kept.key === key && Array.isArray(kept.runs) && Array.isArray(kept.files) ? kept : null;
  } catch {
    return null;
  }
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
      return { project: module.project.name, file: relative(this.root, module.moduleId), seconds: Math.round(ms / 100) / 10 };
    });
    if (!files.length) return;
    const projects = [...new Set(files.map((file) => file.project))].sort();
    const key = `${process.env.npm_lifecycle_event ?? ''}:${process.ppid}`;
    const path = join(this.root, KEPT);
    const before = readKept(path, key);
    // A project run again under the same key (a script that runs it twice) counts once: its latest run.
    const kept: Kept = {
      key,
      runs: [...(before?.runs.map((run) => run.filter((name) => !projects.includes(name))).filter((run) => run.length) ?? []), projects],
      files: [...(before?.files.filter((file) => !projects.includes(file.project)) ?? []), ...files],
    };
    try {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, `${JSON.stringify(kept, null, 1)}\n`);
    } catch {
      // Only the printout below is lost across runs.
    }
    const slowest = [...kept.files].sort((a, b) => b.seconds - a.seconds).slice(0, SHOWN);
    const over = kept.runs.map((run) => run.join(', ')).join(' + ');
    const width = Math.max(...slowest.map((file) => file.project.length));
    const lines = slowest.map((file) => `  ${file.seconds.toFixed(1).padStart(7)} s  ${file.project.padEnd(width)}  ${file.file}`);
    const runs = kept.runs.length === 1 ? 'this run' : `${kept.runs.length} runs of this npm ${process.env.npm_lifecycle_event}`;
    console.log(`\nSlowest test files, ${slowest.length} of ${kept.files.length} (over ${runs}: ${over}):\n${lines.join('\n')}\n`);
  }
}
