// The web-view's one rule: only https URLs whose host is named on the allowlist, read by
// the URL parser — every trick that makes a hostile address look like an allowed one is refused.
import { describe, expect, it } from 'vitest';
import { allowedWebViewUrl, webViewHosts } from '../../src/api-contract/support.ts';
import { serviceTarget, webViewRoute } from '../../src/features/support/support-store.ts';

const HOSTS = webViewHosts(' Allowed.com, docs.example.org ,,');
const allowed = (url: string) => allowedWebViewUrl(url, HOSTS)?.href ?? null;

describe('allowedWebViewUrl', () => {
  it('reads the allowlist setting: trimmed, lower case, empty entries dropped', () => {
    expect(HOSTS).toEqual(['allowed.com', 'docs.example.org']);
    expect(webViewHosts(undefined)).toEqual([]);
    expect(webViewHosts('')).toEqual([]);
  });

  it('opens https pages of listed hosts, whatever their path, query or case', () => {
    expect(allowed('https://allowed.com')).toBe('https://allowed.com/');
    expect(allowed('https://allowed.com/help/faq?x=1#top')).toBe('https://allowed.com/help/faq?x=1#top');
    expect(allowed('https://ALLOWED.com/')).toBe('https://allowed.com/');
    expect(allowed('  https://docs.example.org/a  ')).toBe('https://docs.example.org/a');
    expect(allowed('https://allowed.com./')).toBe('https://allowed.com./');
  });

  it('refuses every other scheme', () => {
    for (const url of [
      'http://allowed.com/',
      'javascript:alert(1)',
      'javascript://allowed.com/%0Aalert(1)',
      'data:text/html,<script>alert(1)</script>',
      'file:///etc/passwd',
      'ftp://allowed.com/',
      'blob:https://allowed.com/123',
      '//allowed.com/',
      'allowed.com',
      '',
      'not a url',
    ])
      expect(allowed(url), url).toBeNull();
  });

  it('refuses hosts that only look like an allowed one', () => {
    for (const url of [
      'https://allowed.com@evil.com/',
      'https://allowed.com:pass@evil.com/',
      'https://evil.com/?allowed.com',
      'https://evil.com/allowed.com',
      'https://evil.com#allowed.com',
      'https://allowed.com.evil.com/',
      'https://evilallowed.com/',
      'https://sub.allowed.com/',
      'https://allowed.co/',
      'https://evil.com\\@allowed.com',
      'https://xn--llowed-jua.com/',
      'https://аllowed.com/',
    ])
      expect(allowed(url), url).toBeNull();
  });

  it('refuses credentials and another port even on an allowed host', () => {
    expect(allowed('https://user@allowed.com/')).toBeNull();
    expect(allowed('https://user:secret@allowed.com/')).toBeNull();
    expect(allowed('https://allowed.com:8443/')).toBeNull();
    expect(allowed('https://allowed.com:443/')).toBe('https://allowed.com/');
  });

  it('opens nothing when the allowlist is empty', () => {
    expect(allowedWebViewUrl('https://allowed.com/', [])).toBeNull();
  });
});

describe('where the service link opens', () => {
  it('in the web-view when it is an allowed https page', () => {
    expect(serviceTarget('https://allowed.com/chat', HOSTS)).toEqual({
      kind: 'webview',
      route: webViewRoute('https://allowed.com/chat'),
    });
    expect(webViewRoute('https://allowed.com/chat?a=1&b=2')).toBe(
      '/pages/index/web-view?url=https%3A%2F%2Fallowed.com%2Fchat%3Fa%3D1%26b%3D2',
    );
  });

  it('in a new tab when it is another web address', () => {
    expect(serviceTarget('https://chat.other.net/room', HOSTS)).toEqual({
      kind: 'tab',
      url: 'https://chat.other.net/room',
    });
    expect(serviceTarget('http://allowed.com/chat', HOSTS)).toEqual({ kind: 'tab', url: 'http://allowed.com/chat' });
  });

  it('nowhere when it is empty or not a web address', () => {
    expect(serviceTarget('', HOSTS)).toEqual({ kind: 'none' });
    expect(serviceTarget('javascript:alert(1)', HOSTS)).toEqual({ kind: 'none' });
    expect(serviceTarget('data:text/html,hi', HOSTS)).toEqual({ kind: 'none' });
    expect(serviceTarget('chat here', HOSTS)).toEqual({ kind: 'none' });
  });
});
