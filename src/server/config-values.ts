// How the value of one environment variable is read (config-schema.ts declares which variable is read how). A value
// that cannot be meant stops the start with a line naming the variable: a typo must not quietly change how the server
// runs (make sessions last for ever, turn a protection off, shift every interest day).
import { resolve } from 'node:path';
import { parseTwoFactorKey } from './domain/two-factor-key.ts';
import { parseReceiptKeys, type ReceiptKeyEntry } from './domain/receipt-keys.ts';

/**
 * One way of reading a value: what the configuration page calls it, and the reading. `read` gets the value trimmed and
 * never empty (an empty variable counts as unset) and the variable's name for its error; it throws an Error whose
 * message is one line an operator can act on.
 */
export interface Kind<T> {
  type: string;
  read(value: string, name: string): T;
}

/** Any text, as written. */
export const text: Kind<string> = { type: 'text', read: (value) => value };

/** A file or folder, relative to the folder the server is started in; read as the full path. */
export const path: Kind<string> = { type: 'path', read: (value) => resolve(value) };

/** A comma-separated setting's items, blanks dropped. */
export const listOf = (value: string) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** Comma-separated items. */
export const list: Kind<string[]> = { type: 'comma-separated list', read: listOf };

/** Comma-separated host names, compared in lower case; `*.` stands for any subdomain, `:port` names a port. */
export const hostList: Kind<string[]> = {
  type: 'comma-separated host names',
  read: (value) => listOf(value).map((host) => host.toLowerCase()),
};

const quoted = (words: string[]) => words.map((word) => `\`${word}\``);

/** One of a few words, exactly. */
export function oneOf<const T extends string>(...words: T[]): Kind<T> {
  return {
    type: words.length > 2 ? `one of ${quoted(words).join(', ')}` : quoted(words).join(' or '),
    read(value, name) {
      if (!(words as string[]).includes(value)) throw new Error(`${name}=${value} is not one of ${words.join(', ')}.`);
      return value as T;
    },
  };
}

/** `true` or `false`, nothing else (a typo such as `flase` must not seed demo money into production). */
export const flag: Kind<boolean> = {
  type: '`true` or `false`',
  read: (value, name) => oneOf('true', 'false').read(value, name) === 'true',
};

/** A whole number from `min` to `max` (`unit` for the page: "ms", "requests a minute"). */
export function whole(min: number, max: number, unit = ''): Kind<number> {
  const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `${min} to ${max}`;
  return {
    type: `whole number${unit ? ` of ${unit}` : ''}, ${range}`,
    read(value, name) {
      const number = /^\d+$/.test(value) ? Number(value) : NaN;
      if (!Number.isSafeInteger(number) || number < min || number > max)
        throw new Error(`${name}=${value} is not a whole number, ${range}.`);
      return number;
    },
  };
}

/** A whole number of `unit`, anything else read as `fallback` (the load-shedding limits, lenient by design). */
export function wholeElse(fallback: number, unit: string): Kind<number> {
  return {
    type: `whole number of ${unit}; anything else is read as the default`,
    read: (value) => (/^\d+$/.test(value) ? Number(value) : fallback),
  };
}

/** A number of ms from 0 to 60,000, rounded; a typo must not make a stop wait for ever or skip the drain silently. */
export const drainMs: Kind<number> = {
  type: 'ms, 0 to 60000',
  read(value, name) {
    const ms = Number(value);
    if (!Number.isFinite(ms) || ms < 0 || ms > 60_000)
      throw new Error(`${name}=${value} is not a number of milliseconds from 0 to 60000 (unset: 2000).`);
    return Math.round(ms);
  },
};

/** Hours, fractions allowed, read as ms; 0 turns the wait off. */
export const hoursAsMs: Kind<number> = {
  type: 'hours (fractions allowed), 0 or more',
  read(value, name) {
    const hours = Number(value);
    if (!Number.isFinite(hours) || hours < 0)
      throw new Error(`${name}=${value} is not a number of hours (0 turns the cooling-off off; unset: 24).`);
    return Math.round(hours * 3_600_000);
  },
};

/** Days above 0, fractions allowed, read as ms; a typo must not make sessions last for ever or end at once. */
export function daysAsMs(unsetDays: number): Kind<number> {
  return {
    type: 'days (fractions allowed), above 0',
    read(value, name) {
      const days = Number(value);
      if (!Number.isFinite(days) || days <= 0)
        throw new Error(`${name}=${value} is not a number of days above 0 (unset: ${unsetDays}).`);
      return Math.round(days * 86_400_000);
    },
  };
}

/** Minutes from 1 to a day (1440), read as ms: console sessions must neither last for ever nor end at once. */
export const consoleMinutesAsMs: Kind<number> = {
  type: 'minutes, 1 to 1440',
  read(value, name) {
    const minutes = Number(value);
    if (!Number.isFinite(minutes) || minutes <= 0 || minutes > 24 * 60)
      throw new Error(`${name}=${value} is not a number of minutes from 1 to 1440 (unset: 30).`);
    return Math.round(minutes * 60_000);
  },
};

/** An amount of USDT as the ledger writes it (up to 12 digits, 8 decimals), kept as its decimal string. */
export const usdt: Kind<string> = {
  type: 'USDT amount',
  read(value, name) {
    if (!/^\d{1,12}(\.\d{1,8})?$/.test(value))
      throw new Error(
        `${name}=${value} is not an amount of USDT (unset: 10000; 0: every withdrawal needs two approvers).`,
      );
    return value;
  },
};

/** The bound of the rewards paid in `unit` (reward-caps.ts): an amount as the ledger writes it (up to 12 digits, 8
 * decimals), kept as its decimal string. */
export const rewardCap = (unit: string): Kind<string> => ({
  type: `${unit} amount`,
  read(value, name) {
    if (!/^\d{1,12}(\.\d{1,8})?$/.test(value))
      throw new Error(`${name}=${value} is not an amount of ${unit} (the most a reward may pay one customer).`);
    return value;
  },
});

/** Whole seconds from 1 to a day, read as ms: a typo must not stop the books' check or run it without pause. */
export const reconcileSecondsAsMs: Kind<number> = {
  type: 'whole seconds, 1 to 86400',
  read(value, name) {
    const seconds = Number(value);
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > 86_400)
      throw new Error(`${name}=${value} is not a whole number of seconds from 1 to 86400 (unset: 300).`);
    return seconds * 1000;
  },
};

/** A whole number for the simulator's seed; a typo must not silently fall back to unpredictable prices. */
export const seed: Kind<number> = {
  type: 'whole number',
  read(value, name) {
    const number = Number(value);
    if (!Number.isSafeInteger(number))
      throw new Error(`${name}=${value} is not a whole number (leave it unset for unpredictable prices).`);
    return number;
  },
};

/** How many times faster than real time; below 1 is read as 1 (the clock never runs slower). */
export const speed: Kind<number> = {
  type: 'number, 1 or more',
  read(value, name) {
    const number = Number(value);
    if (!Number.isFinite(number)) throw new Error(`${name}=${value} is not a number (1: real time).`);
    return Math.max(1, number);
  },
};

/** A moment as ms since 1970-01-01 UTC. */
export const epochMs: Kind<number> = {
  type: 'ms since 1970-01-01 UTC',
  read(value, name) {
    const number = Number(value);
    if (!Number.isFinite(number)) throw new Error(`${name}=${value} is not a time in ms since 1970-01-01 UTC.`);
    return number;
  },
};

/** An IANA time zone the runtime knows ("Asia/Bangkok"); a typo must not shift every interest day. */
export const timeZone: Kind<string> = {
  type: 'IANA time zone',
  read(value, name) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: value });
      return value;
    } catch {
      throw new Error(`${name}=${value} is not a time zone this runtime knows (e.g. Asia/Bangkok, UTC).`);
    }
  },
};

/** 32 bytes as 64 hex digits or base64 (domain/two-factor-key.ts). */
export const twoFactorKey: Kind<Buffer> = {
  type: '32 bytes: 64 hex digits or base64',
  read: (value) => parseTwoFactorKey(value),
};

/** Ed25519 receipt signing keys, `<64 hex>@<ISO time>`, comma separated (domain/receipt-keys.ts). */
export const receiptKeys: Kind<ReceiptKeyEntry[]> = {
  type: '`<64 hex digits>@<ISO time>`, comma separated',
  read: (value, name) => parseReceiptKeys(value, name),
};

/** How a push service reaches the operator: a mailto: or https: address (RFC 8292). */
export const vapidSubject: Kind<string> = {
  type: '`mailto:` or `https:` address',
  read(value, name) {
    if (!/^(mailto:[^@\s]+@[^@\s]+|https:\/\/[^/\s]+.*)$/.test(value))
      throw new Error(`${name} must be a mailto: or https: address (mailto:ops@example.com), not ${value}.`);
    return value;
  },
};
