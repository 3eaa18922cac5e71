// The rough place of a sign-in (domain/login-history.ts): the country of the client address, from a table the operator
// may give (LOGIN_COUNTRY_FILE) and nothing else — no outside service is ever asked, so the server works offline, and
// without a table every place is unknown. The table is a CSV of address ranges: `first,last,CC` a line (IPv4 or IPv6
// addresses, CC an ISO 3166-1 alpha-2 code), as the free "IP to Country Lite" files are, or as one writes from a
// regional registry's delegation files. A line that is not such a range is skipped; ranges are looked up by binary
// search over their starts.
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';

/** The country of an address ('TH'), or null when the table has none (or there is no table). */
export type CountryOf = (ip: string) => string | null;

interface Range {
  first: bigint;
  last: bigint;
  country: string;
}

/** An address as a number in one space for both families: IPv4 as its IPv4-mapped IPv6 form (::ffff:a.b.c.d). */
export function addressNumber(ip: string): bigint | null {
  const address = ip.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const v4 = mapped ? mapped[1]! : address;
  if (isIP(v4) === 4) return (0xffffn << 32n) | v4.split('.').reduce((n, part) => (n << 8n) | BigInt(part), 0n);
  if (isIP(address) !== 6) return null;
  const [head = '', tail] = address.split('::');
  const groups = (part: string) =>
    part ? part.split(':').flatMap((group) => (group.includes('.') ? ipv4Groups(group) : [group])) : [];
  const known = [...groups(head), ...(tail === undefined ? [] : groups(tail))];
  const all =
    tail === undefined ? known : [...groups(head), ...Array<string>(8 - known.length).fill('0'), ...groups(tail)];
  return all.reduce((n, group) => (n << 16n) | BigInt(parseInt(group, 16)), 0n);
}

const ipv4Groups = (dotted: string) => {
  const [a = 0, b = 0, c = 0, d = 0] = dotted.split('.').map(Number);
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
};

/** The lookup of a table's text (see the top of this file); an empty or unreadable text finds no country. */
export function countryTable(text: string): CountryOf {
  const ranges: Range[] = [];
  for (const line of text.split(/\r?\n/)) {
    const [from = '', to = '', code = ''] = line.split(',').map((cell) => cell.trim().replace(/^"|"$/g, ''));
    const first = addressNumber(from);
    const last = addressNumber(to);
    if (first === null || last === null || last < first || !/^[A-Z]{2}$/.test(code) || code === 'ZZ') continue;
    ranges.push({ first, last, country: code });
  }
  ranges.sort((a, b) => (a.first < b.first ? -1 : a.first > b.first ? 1 : 0));
  return (ip) => {
    const n = addressNumber(ip);
    if (n === null) return null;
    let low = 0;
    let high = ranges.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const range = ranges[middle]!;
      if (n < range.first) high = middle - 1;
      else if (n > range.last) low = middle + 1;
      else return range.country;
    }
    return null;
  };
}

const loaded = new Map<string, CountryOf>();
const NOWHERE: CountryOf = () => null;

/**
 * The lookup of the table in `file` (LOGIN_COUNTRY_FILE), read once per process; null: no table, every place unknown.
 * @throws Error when the file cannot be read: a configured table that is missing stops the start rather than showing
 * every place as unknown unnoticed.
 */
export function countryLookup(file: string | null): CountryOf {
  if (!file) return NOWHERE;
  let lookup = loaded.get(file);
  if (!lookup) {
    lookup = countryTable(readFileSync(file, 'utf8'));
    loaded.set(file, lookup);
  }
  return lookup;
}
