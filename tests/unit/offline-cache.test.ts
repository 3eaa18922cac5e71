// ARCHITECTURE "Offline": the service worker keys a POST by a synthetic GET URL built from its
// method, path and form body, and keeps each user's messages in a cache named by a hash of the
// token, so one user never reads another's.
import { contractAmounts, contractOrders, contractPairs } from '../../src/contract/contracts.ts';
import {
  earnBalance,
  liquidityProduct,
  liquidityRecords,
  liquidityRule,
  lockupOrders,
  lockupProduct,
  lockupProducts,
  transferInInfo,
  transferOutInfo,
} from '../../src/contract/earn.ts';
import { describe, expect, it } from 'vitest';
import { USER_CALLS, PUBLIC_PATHS, TOKEN_HEADER, apiPathOf, isUserCall, isPartition, isPublicCall, partitionName, syntheticKey } from '../../src/contract/offline-cache.ts';
import { TOKEN_HEADER as CONTRACT_TOKEN_HEADER } from '../../src/contract/envelope.ts';
import { coinList, optionProducts } from '../../src/contract/markets.ts';
import { config, slides } from '../../src/contract/content.ts';
import { activityInfo, activityList, winNotice } from '../../src/contract/activities.ts';
import { blindBoxDraws, blindBoxInfo } from '../../src/contract/blindbox.ts';
import { contentPage } from '../../src/contract/support.ts';
import { inviteState } from '../../src/contract/share.ts';
import { signInCalendar } from '../../src/contract/signin.ts';
import { welfareTask, welfareTasks } from '../../src/contract/welfare.ts';
import { messages, readMessages, unreadMessages } from '../../src/contract/messages.ts';
import { accountEntries, rechargeChannels, rechargeOrder, rechargeRecords, withdrawOrder, withdrawRecords } from '../../src/contract/funds.ts';
import { bankCards, deleteBankCard, wallets } from '../../src/contract/payouts.ts';
import { certificationState } from '../../src/contract/certification.ts';
import { levelProgress, pointRecords, redeemPoints, vipLevels } from '../../src/contract/rewards.ts';

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
  it('names the contract’s paths and header', () => {
    expect(PUBLIC_PATHS).toEqual([coinList.path, optionProducts.path, config.path, slides.path, contentPage.path, activityList.path, activityInfo.path, winNotice.path]);
    const reads = [
      messages,
      unreadMessages,
      rechargeChannels,
      rechargeRecords,
      rechargeOrder,
      withdrawRecords,
      withdrawOrder,
      accountEntries,
      bankCards,
      wallets,
      certificationState,
      vipLevels,
      levelProgress,
      pointRecords,
      signInCalendar,
      welfareTasks,
      welfareTask,
      contractPairs,
      contractOrders,
      contractAmounts,
      liquidityProduct,
      liquidityRule,
      earnBalance,
      transferInInfo,
      transferOutInfo,
      liquidityRecords,
      lockupProducts,
      lockupProduct,
      lockupOrders,
      inviteState,
      blindBoxInfo,
      blindBoxDraws,
    ];
    expect(USER_CALLS).toEqual(reads.map((call) => ({ method: call.method, path: call.path })));
    // Only reads are kept: a write is never answered from a cache.
    expect(reads.every((call) => call.readOnly)).toBe(true);
    expect(TOKEN_HEADER).toBe(CONTRACT_TOKEN_HEADER);
  });

  it('caches public reads and the messages reads, wherever the API is hosted, and nothing else', () => {
    expect(apiPathOf('https://api.example/v2/api/coin/lists?x=1')).toBe('/coin/lists');
    expect(isPublicCall('GET', `${API}/coin/lists`)).toBe(true);
    expect(isPublicCall('GET', `${API}/other/config?act=system`)).toBe(true);
    expect(isPublicCall('GET', `${API}/content/slide?position=home`)).toBe(true);
    expect(isUserCall('POST', `${API}/users/message`)).toBe(true);
    expect(isUserCall('GET', `${API}/users/message/unread`)).toBe(true);

    expect(isPublicCall('POST', `${API}/coin/lists`)).toBe(false);
    expect(isUserCall('POST', `${API}${readMessages.path}`)).toBe(false);
    expect(isUserCall('GET', `${API}/users/message`)).toBe(false);
    // GETs that write (§7 declares them GET) go to the network like every write.
    expect(isUserCall('GET', `${API}${deleteBankCard.path}?id=1`)).toBe(false);
    expect(isUserCall('GET', `${API}${redeemPoints.path}?number=100`)).toBe(false);
    for (const path of ['/users/balances', '/users/info', '/coin/order/lists', '/coin/order/add', '/pay/submit', '/users/extract']) {
      expect(isPublicCall('GET', `${API}${path}`) || isUserCall('GET', `${API}${path}`) || isUserCall('POST', `${API}${path}`)).toBe(false);
    }
    expect(isPublicCall('GET', 'https://app.example/coin/lists')).toBe(false);
  });
});
