// The offline cache: the service worker keys a POST by a synthetic GET URL built from its
// method, path and form body, and keeps each user's messages in a cache named by a hash of the
// token, so one user never reads another's.
import { describe, expect, it } from 'vitest';
import { PUBLIC_PATHS, USER_CALLS, isPublicCall, isUserCall } from '../../src/lib/cached-calls.ts';
import {
  LANG_HEADER,
  TOKEN_HEADER,
  apiPathOf,
  isPartition,
  cachedCallsOf,
  partitionName,
  syntheticKey,
} from '../../src/api-contract/offline-cache.ts';
import { NoInput, get, post, returns } from '../../src/api-contract/endpoint.ts';
import { endpointsIn } from '../../src/api-contract/registry.ts';
import {
  LANG_HEADER as CONTRACT_LANG_HEADER,
  TOKEN_HEADER as CONTRACT_TOKEN_HEADER,
} from '../../src/api-contract/envelope.ts';
import { balances, coinList } from '../../src/api-contract/markets.ts';
import { placeOption } from '../../src/api-contract/options.ts';
import { config, slides } from '../../src/api-contract/content.ts';
import { messages, readMessages, unreadMessages } from '../../src/api-contract/messages.ts';
import { rechargeRecords, submitWithdraw } from '../../src/api-contract/funds.ts';
import { deleteBankCard } from '../../src/api-contract/payouts.ts';
import { redeemPoints } from '../../src/api-contract/rewards.ts';
import { userInfo } from '../../src/api-contract/account.ts';

const API = 'https://app.example/api';
/** Every endpoint of src/api-contract, as the build reads them. */
const contract = endpointsIn(
  Object.fromEntries(
    Object.entries(import.meta.glob<Record<string, unknown>>('../../src/api-contract/*.ts', { eager: true })).map(
      ([file, exports]) => [file.replace(/^.*\/|\.ts$/g, ''), exports],
    ),
  ),
).map(({ endpoint }) => endpoint);

describe('syntheticKey', () => {
  it('is a GET-able URL built from the method, the path and the form body', () => {
    const key = syntheticKey('POST', `${API}/users/message`, 'status=unread&page=2');
    expect(key).toBe('https://app.example/__offline__/POST/api/users/message?page=2&status=unread');
    expect(new Request(key).method).toBe('GET');
  });

  it('gives the same key for the same fields in any order', () => {
    expect(syntheticKey('POST', `${API}/users/message`, 'status=all&page=1')).toBe(
      syntheticKey('post', `${API}/users/message`, 'page=1&status=all'),
    );
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

  it('keeps each language apart: an Arabic answer is never the English one, wherever the field order', () => {
    // The public notice and a user's messages alike (the worker keys both with the `lang` header).
    const url = `${API}/other/config?act=system`;
    expect(syntheticKey('GET', url, '', 'ar')).toBe(
      'https://app.example/__offline__/ar/GET/api/other/config?act=system',
    );
    const keys = ['en', 'ar', 'zh', 'th', 'jp', 'hi'].map((lang) => syntheticKey('GET', url, '', lang));
    expect(new Set(keys).size).toBe(6);
    expect(syntheticKey('POST', `${API}/users/message`, 'page=1&status=all', 'th')).toBe(
      syntheticKey('POST', `${API}/users/message`, 'status=all&page=1', 'th'),
    );
    expect(syntheticKey('POST', `${API}/users/message`, 'page=1', 'th')).not.toBe(
      syntheticKey('POST', `${API}/users/message`, 'page=1', 'ar'),
    );
  });

  it('takes no path from the header: a language that is no language code is left out of the key', () => {
    expect(syntheticKey('GET', `${API}/content/slide?position=home`, '', '../../x')).toBe(
      'https://app.example/__offline__/GET/api/content/slide?position=home',
    );
    expect(syntheticKey('GET', `${API}/content/slide?position=home`, '', 'EN')).toBe(
      'https://app.example/__offline__/en/GET/api/content/slide?position=home',
    );
  });

  it('keeps a field whose value holds & or = intact (form encoding)', () => {
    const key = syntheticKey('POST', `${API}/users/message`, new URLSearchParams({ status: 'a&b=c' }).toString());
    expect(new URL(key).searchParams.get('status')).toBe('a&b=c');
  });
});

describe('partitionName', () => {
  it('is user- and the first 16 hex digits of sha256(token)', async () => {
    // sha256("abc") = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
    expect(await partitionName('abc')).toBe('user-ba7816bf8f01cfea');
  });

  it('is stable for one token and differs between tokens; the token itself never appears', async () => {
    const a = await partitionName('token-of-user-a');
    expect(await partitionName('token-of-user-a')).toBe(a);
    expect(await partitionName('token-of-user-b')).not.toBe(a);
    expect(a).not.toContain('token');
    expect(isPartition(a)).toBe(true);
    expect(isPartition('user-')).toBe(false);
    expect(isPartition('messages-ba7816bf8f01cfea')).toBe(false);
    expect(isPartition('api-public-v1')).toBe(false);
  });
});

describe('which calls are cached', () => {
  it('keeps what each endpoint of the API contract says, and only reads', () => {
    for (const endpoint of contract) {
      const url = `${API}${endpoint.path}`;
      const call = `${endpoint.method} ${endpoint.path}`;
      expect(isPublicCall(endpoint.method, url), call).toBe(endpoint.cache === 'public');
      expect(isUserCall(endpoint.method, url), call).toBe(endpoint.cache === 'user');
      // Only reads are cached: a write is never answered from a cache; the shared cache holds no one's session.
      if (endpoint.cache !== 'never') expect(endpoint.readOnly, call).toBe(true);
      if (endpoint.cache === 'public') expect(endpoint.auth, call).toBe(false);
    }
    // The lists the build made for the worker and the page are the API contract's.
    expect(cachedCallsOf(contract)).toEqual({ publicPaths: PUBLIC_PATHS, userCalls: USER_CALLS });
    expect([coinList, config, slides].map((call) => call.cache)).toEqual(['public', 'public', 'public']);
    // The balances too: asked of the network first, the last kept shown offline marked with its time.
    expect([messages, unreadMessages, rechargeRecords, balances].map((call) => call.cache)).toEqual([
      'user',
      'user',
      'user',
      'user',
    ]);
    // The profile and everything that moves money always ask the network.
    expect([userInfo, placeOption, submitWithdraw, readMessages].map((call) => call.cache)).toEqual([
      'never',
      'never',
      'never',
      'never',
    ]);
    expect(TOKEN_HEADER).toBe(CONTRACT_TOKEN_HEADER);
    expect(LANG_HEADER).toBe(CONTRACT_LANG_HEADER);
  });

  it('stops the build when a write, or a call that needs a session, is declared cached in the shared cache', () => {
    expect(() => cachedCallsOf([post('/pay/submit', NoInput, returns(NoInput), { cache: 'user' })])).toThrow(
      'POST /pay/submit writes',
    );
    expect(() =>
      cachedCallsOf([post('/coin/trans/lists', NoInput, returns(NoInput), { readOnly: true, cache: 'public' })]),
    ).toThrow('must be a GET');
    expect(() => cachedCallsOf([get('/users/info', NoInput, returns(NoInput), { cache: 'public' })])).toThrow(
      'a GET that needs no session',
    );
    expect(cachedCallsOf([get('/users/info', NoInput, returns(NoInput))])).toEqual({ publicPaths: [], userCalls: [] });
  });

  it('caches public reads and the messages reads, wherever the API is hosted, and nothing else', () => {
    expect(apiPathOf('https://api.example/v2/api/coin/lists?x=1')).toBe('/coin/lists');
    expect(isPublicCall('GET', `${API}/coin/lists`)).toBe(true);
    expect(isPublicCall('GET', `${API}/other/config?act=system`)).toBe(true);
    expect(isPublicCall('GET', `${API}/content/slide?position=home`)).toBe(true);
    expect(isUserCall('POST', `${API}/users/message`)).toBe(true);
    expect(isUserCall('GET', `${API}/users/message/unread`)).toBe(true);
    expect(isUserCall('GET', `${API}/users/balances`)).toBe(true);

    expect(isPublicCall('POST', `${API}/coin/lists`)).toBe(false);
    expect(isUserCall('POST', `${API}${readMessages.path}`)).toBe(false);
    expect(isUserCall('GET', `${API}/users/message`)).toBe(false);
    // GETs that write (declared GET by the API) go to the network like every write.
    expect(isUserCall('GET', `${API}${deleteBankCard.path}?id=1`)).toBe(false);
    expect(isUserCall('GET', `${API}${redeemPoints.path}?number=100`)).toBe(false);
    for (const path of ['/users/info', '/coin/order/lists', '/coin/order/add', '/pay/submit', '/users/extract']) {
      expect(
        isPublicCall('GET', `${API}${path}`) ||
          isUserCall('GET', `${API}${path}`) ||
          isUserCall('POST', `${API}${path}`),
      ).toBe(false);
    }
    expect(isPublicCall('GET', 'https://app.example/coin/lists')).toBe(false);
  });
});
