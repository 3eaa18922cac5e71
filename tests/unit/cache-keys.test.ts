// ARCHITECTURE "Offline": the service worker keys a POST by a synthetic GET URL built from its
// method, path and form body, and keeps each user's messages in a cache named by a hash of the
// token, so one user never reads another's.
import { describe, expect, it } from 'vitest';
import {
  MESSAGE_CALLS,
  PUBLIC_PATHS,
  TOKEN_HEADER,
  apiPathOf,
  isMessageCall,
  isPartition,
  isPublicCall,
  partitionName,
  syntheticKey,
} from '../../sw/cache-keys.ts';
import { TOKEN_HEADER as CONTRACT_TOKEN_HEADER } from '../../src/contract/envelope.ts';
import { coinList } from '../../src/contract/markets.ts';
import { config, slides } from '../../src/contract/content.ts';
import { messages, readMessages, unreadMessages } from '../../src/contract/messages.ts';

const API = 'https://app.example/api';

describe('syntheticKey', () => {
  it('is a GET-able URL built from the method, the path and the form body', () => {
    const key = syntheticKey('POST', `${API}/users/message`, 'status=unread&page=2');
    expect(key).toBe('https://app.example/__offline__/POST/api/users/message?page=2&status=unread');
    expect(new Request(key).method).toBe('GET');
  });

  it('gives the same key for the same fields in any order', () => {
    expect(syntheticKey('POST', `${API}/users/message`, 'status=all&page=1')).toBe(syntheticKey('post', `${API}/users/message`, 'page=1&status=all'));
  });

  it('tells apart bodies, methods, paths and query strings', () => {
    const keys = [
      syntheticKey('POST', `${API}/users/message`, 'status=all&page=1'),
      syntheticKey('POST', `${API}/users/message`, 'status=all&page=2'),
      syntheticKey('POST', `${API}/users/message`, 'status=unread&page=1'),
      syntheticKey('GET', `${API}/users/message`, 'status=all&page=1'),
      syntheticKey('GET', `${API}/users/message/unread`),
      syntheticKey('GET', `${API}/users/message/unread?x=1`),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keeps a field whose value holds & or = intact (form encoding)', () => {
    const key = syntheticKey('POST', `${API}/users/message`, new URLSearchParams({ status: 'a&b=c' }).toString());
    expect(new URL(key).searchParams.get('status')).toBe('a&b=c');
  });
});

describe('partitionName', () => {
  it('is messages- and the first 16 hex digits of sha256(token)', async () => {
    // sha256("abc") = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
    expect(await partitionName('abc')).toBe('messages-ba7816bf8f01cfea');
  });

  it('is stable for one token and differs between tokens; the token itself never appears', async () => {
    const a = await partitionName('token-of-user-a');
    expect(await partitionName('token-of-user-a')).toBe(a);
    expect(await partitionName('token-of-user-b')).not.toBe(a);
    expect(a).not.toContain('token');
    expect(isPartition(a)).toBe(true);
    expect(isPartition('messages-')).toBe(false);
    expect(isPartition('api-public-v1')).toBe(false);
  });
});

describe('which calls are cached', () => {
  it('names the contract’s paths and header', () => {
    expect(PUBLIC_PATHS).toEqual([coinList.path, config.path, slides.path]);
    expect(MESSAGE_CALLS).toEqual([
      { method: messages.method, path: messages.path },
      { method: unreadMessages.method, path: unreadMessages.path },
    ]);
    expect(TOKEN_HEADER).toBe(CONTRACT_TOKEN_HEADER);
  });

  it('caches public reads and the messages reads, wherever the API is hosted, and nothing else', () => {
    expect(apiPathOf('https://api.example/v2/api/coin/lists?x=1')).toBe('/coin/lists');
    expect(isPublicCall('GET', `${API}/coin/lists`)).toBe(true);
    expect(isPublicCall('GET', `${API}/other/config?act=system`)).toBe(true);
    expect(isPublicCall('GET', `${API}/content/slide?position=home`)).toBe(true);
    expect(isMessageCall('POST', `${API}/users/message`)).toBe(true);
    expect(isMessageCall('GET', `${API}/users/message/unread`)).toBe(true);

    expect(isPublicCall('POST', `${API}/coin/lists`)).toBe(false);
    expect(isMessageCall('POST', `${API}${readMessages.path}`)).toBe(false);
    expect(isMessageCall('GET', `${API}/users/message`)).toBe(false);
    for (const path of ['/users/balances', '/users/info', '/coin/order/lists', '/coin/order/add']) {
      expect(isPublicCall('GET', `${API}${path}`) || isMessageCall('GET', `${API}${path}`) || isMessageCall('POST', `${API}${path}`)).toBe(false);
    }
    expect(isPublicCall('GET', 'https://app.example/coin/lists')).toBe(false);
  });
});
