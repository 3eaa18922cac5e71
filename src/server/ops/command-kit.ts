// What every operator command shares: its context, usage mistakes, argument readers and the
// table printer. An area's commands live in their own file (ops/<area>-commands.ts) and are
// merged into the command list in commands.ts.
import type { RewardCaps } from '../domain/reward-caps.ts';
import Big from 'big.js';
import { readFileSync } from 'node:fs';
import type { Db } from '../db/connection.ts';

// The query lives with the console's reads of closed accounts; commands.ts imports it from here.
export { customerNames } from '../domain/console-closures.ts';
import type { CustomerName } from '../domain/console-closures.ts';

/** A customer as a command prints one: the username (a closed account's as it was), "(closed)" after a closed one. */
export const customerLabel = ({ username, closed }: CustomerName): string =>
  closed ? `${username} (closed)` : username;

export interface OperatorContext {
  db: Db;
  now: Date;
  /** EARN_TIMEZONE: which interest day is today (a ladder can be published only for a later one). */
  earnTimeZone?: string;
  /** The process runs in production mode (NODE_ENV): test balances are refused, as on any database a production server
   * ran on. */
  production: boolean;
  /** The server's two-factor key (operator accounts' authenticators are sealed with it); a process without one uses its
   * own (tests). */
  twoFactorKey?: Buffer;
  /** FOUR_EYES_USDT: above it a withdrawal or recharge needs two approvers (the command counts as the operator 'ops').
   */
  fourEyesUsdt?: string;
  /** REWARD_MAX_USDT, REWARD_MAX_POINTS: the most a reward an operator sets may pay one customer (reward-caps.ts). */
  rewardCaps?: RewardCaps;
}

export type Command = (ctx: OperatorContext, args: string[]) => Promise<string>;

/** A mistake in the command line: printed as it is, nothing changed. */
export class UsageError extends Error {}

export function idOf(id: string | undefined): number {
  if (!id || !/^\d{1,9}$/.test(id)) throw new UsageError('Name it by its id (see the list command).');
  return Number(id);
}

export function reasonOf(rest: string[]): string {
  if (rest.length !== 1 || !rest[0]!.trim())
    throw new UsageError('Give the reason the customer will see, in quotes: reject <id> "<reason>".');
  return rest[0]!;
}

export function oneOf<T extends string>(value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`Use one of: ${allowed.join(', ')}, all.`);
  return value as T;
}

export function keyValues<K extends string>(args: string[], keys: readonly K[]): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const arg of args) {
    const at = arg.indexOf('=');
    const key = arg.slice(0, at) as K;
    if (at < 1 || !keys.includes(key))
      throw new UsageError(`Cannot read "${arg}": use ${keys.map((name) => `${name}=…`).join(' or ')}.`);
    out[key] = arg.slice(at + 1);
  }
  return out;
}

/** "12.50000000" → "12.5". */
export const plain = (value: string) => new Big(value).toString();

/** Rows as aligned text columns (the same on a terminal and through the socket). */
export function table(rows: Record<string, unknown>[], empty: string): string {
  if (!rows.length) return empty;
  const columns = Object.keys(rows[0]!);
  const cells = rows.map((row) => columns.map((column) => String(row[column] ?? '')));
  const widths = columns.map((column, index) => Math.max(column.length, ...cells.map((line) => line[index]!.length)));
  const line = (values: string[]) =>
    values
      .map((value, index) => value.padEnd(widths[index]!))
      .join('  ')
      .trimEnd();
  return [line(columns), line(widths.map((width) => '-'.repeat(width))), ...cells.map(line)].join('\n');
}

/**
 * A text file an operator names (a page, an activity's HTML) as UTF-8 text, its byte order mark left out: it marks the
 * file's encoding, it is not text. Throws the file system's error (ENOENT, EACCES…) for the command to word.
 */
export const readTextFile = (file: string): string => readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
