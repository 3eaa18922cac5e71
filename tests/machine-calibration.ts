// How fast one core of this machine is, printed beside every figure `npm test` and `npm run bench` report, since the
// figures depend on it. Three measures, because one does not follow the others on the machines these run on:
// - SHA-256 a second: arithmetic that stays in the core's caches;
// - a kernel call: a 1-byte read of /dev/zero through Node's fs, what every socket write, pipe and timer of a
//   server, a browser and a test runner pays again and again;
// - fresh memory: filling memory the process has just mapped, one page fault per 4 KiB page, what every process
//   start, heap growth and browser tab pays.
// On a virtual machine whose kernel calls and page faults go through the hypervisor, the last two can cost ten times
// what they cost on the hardware while SHA-256 stays the same: measured on 2026-12-03, a kernel call 1.9 µs through
// Node (a bare `getppid` from C 0.97 µs) and fresh memory 2.9 s a GiB (11 µs a page), with SHA-256 at 1,690 MB/s:
// 14 % below 2026-11-30's 1,967, when the same commit's `npm test` took 2.2 times less CPU. Compare runs by all three.
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';

/** One core's speed, three ways (see the top of this file). */
export interface Calibration {
  /** Megabytes (10^6 bytes) of SHA-256 a second, over a quarter of a second. */
  sha256MBps: number;
  /** Nanoseconds a kernel call takes from JavaScript: a 1-byte `readSync` of /dev/zero, the mean of 10,000, the
   * quickest of three such batches (after 2,000 to warm the compiler up). */
  kernelCallNs: number;
  /** Milliseconds to fill one GiB of freshly mapped memory (4 × 64 MiB, each mapped, filled and let go). */
  freshMemoryMsPerGiB: number;
}

const MIB = 1 << 20;

function sha256MBps(): number {
  const block = Buffer.alloc(MIB, 7);
  const from = performance.now();
  let bytes = 0;
  while (performance.now() - from < 250) {
    createHash('sha256').update(block).digest();
    bytes += block.length;
  }
  return bytes / 1e6 / ((performance.now() - from) / 1000);
}

function kernelCallNs(): number {
  const calls = 10_000;
  const fd = openSync('/dev/zero', 'r');
  const byte = Buffer.alloc(1);
  try {
    for (let i = 0; i < 2000; i++) readSync(fd, byte, 0, 1, null);
    let quickest = Infinity;
    for (let batch = 0; batch < 3; batch++) {
      const from = performance.now();
      for (let i = 0; i < calls; i++) readSync(fd, byte, 0, 1, null);
      quickest = Math.min(quickest, ((performance.now() - from) * 1e6) / calls);
    }
    return quickest;
  } finally {
    closeSync(fd);
  }
}

function freshMemoryMsPerGiB(): number {
  const from = performance.now();
  // Above the allocator's mapping threshold: each buffer is a new mapping, its pages first touched by the fill.
  for (let i = 0; i < 4; i++) Buffer.allocUnsafeSlow(64 * MIB).fill(1);
  return (performance.now() - from) * 4;
}

/** Measures the three figures now, in this process (about 1 s on a machine like this one). */
export function calibrate(): Calibration {
  return { sha256MBps: sha256MBps(), kernelCallNs: kernelCallNs(), freshMemoryMsPerGiB: freshMemoryMsPerGiB() };
}

/** The figures as one line's part, e.g. `one core: SHA-256 1694 MB/s, a kernel call 1.9 µs, fresh memory 2.9 s/GiB`. */
export function calibrationText(calibration: Calibration = calibrate()): string {
  return (
    `one core: SHA-256 ${calibration.sha256MBps.toFixed(0)} MB/s, a kernel call ` +
    `${(calibration.kernelCallNs / 1000).toFixed(2)} µs, fresh memory ${(calibration.freshMemoryMsPerGiB / 1000).toFixed(2)} s/GiB`
  );
}
