// The rough place of a sign-in: the country of an address from the operator's CSV of ranges (LOGIN_COUNTRY_FILE),
// IPv4 and IPv6 alike; an address no range holds, a line that is no range, or no table at all: unknown.
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addressNumber, countryLookup, countryTable } from '../../src/server/domain/login-places.ts';

const TABLE = [
  '# a comment line is no range',
  '1.0.0.0,1.0.0.255,AU',
  '"203.0.113.0","203.0.113.255","TH"',
  '198.51.100.0,198.51.100.127,JP',
  '2001:db8::,2001:db8:ffff:ffff:ffff:ffff:ffff:ffff,DE',
  '10.0.0.0,10.255.255.255,ZZ',
  '5.5.5.5,5.5.5.1,US',
  'not,an,address',
].join('\r\n');

describe('the address-to-country table', () => {
  const countryOf = countryTable(TABLE);

  it('finds the range an address is in, IPv4, IPv4 written as IPv6, and IPv6', () => {
    expect(countryOf('203.0.113.57')).toBe('TH');
    expect(countryOf('::ffff:203.0.113.57')).toBe('TH');
    expect(countryOf('1.0.0.0')).toBe('AU');
    expect(countryOf('1.0.0.255')).toBe('AU');
    expect(countryOf('198.51.100.127')).toBe('JP');
    expect(countryOf('2001:db8:85a3::8a2e:370:7334')).toBe('DE');
    expect(countryOf('2001:db8::1%eth0')).toBe('DE');
  });

  it('answers null outside every range, for the unknown region ZZ, a reversed range and what is no address', () => {
    expect(countryOf('198.51.100.128')).toBeNull();
    expect(countryOf('1.0.1.0')).toBeNull();
    expect(countryOf('10.1.2.3')).toBeNull();
    expect(countryOf('5.5.5.3')).toBeNull();
    expect(countryOf('2001:db9::1')).toBeNull();
    expect(countryOf('')).toBeNull();
    expect(countryOf('localhost')).toBeNull();
  });

  it('orders IPv4 below IPv6 in one number space', () => {
    expect(addressNumber('0.0.0.1')).toBe(0xffff00000001n);
    expect(addressNumber('::ffff:0.0.0.1')).toBe(0xffff00000001n);
    expect(addressNumber('::1')).toBe(1n);
    expect(addressNumber('ffff::')).toBe(0xffffn << 112n);
    expect(addressNumber('::ffff:1.2.3.4')).toBe(addressNumber('1.2.3.4'));
  });

  it('without a file knows no place; with one, reads it once', () => {
    expect(countryLookup(null)('203.0.113.57')).toBeNull();
    const file = join(mkdtempSync(join(tmpdir(), 'places-')), 'countries.csv');
    writeFileSync(file, TABLE);
    const lookup = countryLookup(file);
    expect(lookup('203.0.113.9')).toBe('TH');
    writeFileSync(file, '');
    expect(countryLookup(file)).toBe(lookup);
    expect(() => countryLookup(join(file, 'missing.csv'))).toThrow();
  });
});
