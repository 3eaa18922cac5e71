// What the Devices page and the new sign-in message call a device, and how much of an address they
// show (src/server/domain/devices.ts).
import { describe, expect, it, vi } from 'vitest';
import { USER_AGENT_MAX_LENGTH, deviceOf, maskAddress, readUserAgent } from '../../src/server/domain/devices.ts';

describe('the device of a User-Agent', () => {
  it.each([
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
      'Chrome, Android',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      'Safari, iOS',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1',
      'Chrome, iOS',
    ],
    [
      'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/127.0 Mobile/15E148 Safari/605.1.15',
      'Firefox, iOS',
    ],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox, Windows'],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.70',
      'Edge, Windows',
    ],
    [
      'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 EdgA/131.0.0.0',
      'Edge, Android',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
      'Samsung Internet, Android',
    ],
    [
      'Mozilla/5.0 (Linux; Android 13; SM-A536B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/130.0.6723.107 Mobile Safari/537.36',
      'WebView, Android',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
      'WebView, iOS',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
      'Safari, macOS',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0',
      'Opera, macOS',
    ],
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'Chrome, Linux',
    ],
    [
      'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'Chrome, ChromeOS',
    ],
    ['Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox, Linux'],
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.6778.85 Safari/537.36',
      'Chrome, Linux',
    ],
  ])('%s is %s', (userAgent, device) => {
    expect(deviceOf(userAgent)).toBe(device);
  });

  it('names only what it recognises, and nothing for a stranger', () => {
    expect(readUserAgent('curl/8.5.0')).toEqual({ browser: null, system: null });
    expect(deviceOf('curl/8.5.0')).toBe('');
    expect(deviceOf('')).toBe('');
    expect(deviceOf('node')).toBe('');
    expect(deviceOf('okhttp/4.12.0 (Linux; Android 14)')).toBe('Android');
  });

  it('reads only the first characters of a hostile header', () => {
    const padded = `${'x'.repeat(USER_AGENT_MAX_LENGTH)} Chrome/131.0 (Windows NT 10.0)`;
    expect(deviceOf(padded)).toBe('');
    // A 140 KB header: no pattern is tried on more than its first USER_AGENT_MAX_LENGTH characters, so no expensive
    // work is done on it, and the device named is that of those characters.
    const hostile = `${'Mozilla/5.0 ('.repeat(10_000)}`;
    const tries = vi.spyOn(RegExp.prototype, 'test');
    let device: string;
    let read: number[]; // the length of each text a pattern was tried on
    try {
      device = deviceOf(hostile);
      read = tries.mock.calls.map(([text]) => String(text).length);
    } finally {
      tries.mockRestore();
    }
    expect(read.length).toBeGreaterThan(0);
    expect(Math.max(...read)).toBeLessThanOrEqual(USER_AGENT_MAX_LENGTH);
    expect(device).toBe(deviceOf(hostile.slice(0, USER_AGENT_MAX_LENGTH)));
  });
});

describe('an address, partly hidden', () => {
  it('hides the last number of an IPv4 address', () => {
    expect(maskAddress('203.0.113.57')).toBe('203.0.113.•••');
    expect(maskAddress('10.0.0.1')).toBe('10.0.0.•••');
    expect(maskAddress('::ffff:198.51.100.20')).toBe('198.51.100.•••');
  });

  it('shows the first three groups of an IPv6 address', () => {
    expect(maskAddress('2001:db8:85a3::8a2e:370:7334')).toBe('2001:db8:85a3:…');
    expect(maskAddress('2001:0DB8:0000:0042:0000:8a2e:0370:7334')).toBe('2001:db8:0:…');
    expect(maskAddress('2001:db8::1')).toBe('2001:db8:0:…');
    expect(maskAddress('fe80::1%eth0')).toBe('fe80:0:0:…');
    expect(maskAddress('::1')).toBe('0:0:0:…');
  });

  it('shows nothing of what is not an address', () => {
    for (const text of ['', 'unknown', '1.2.3', '2001:db8::85a3::1', '1:2:3:4:5:6:7:8:9', 'g::1', '<script>'])
      expect(maskAddress(text)).toBe('');
  });
});
