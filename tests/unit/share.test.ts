// @vitest-environment jsdom
// The share page's rules (the page is public): a visitor is asked to log in; without the invitation
// permission the page shows the not-activated text and no link; with it, the link to this app's register page
// with the code filled; another account's invitation never shows. Also the map pages' coordinates
// and the old Options link.
import { afterEach, describe, expect, it } from 'vitest';
import { inviteLink, type InviteState } from '../../src/api-contract/share.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { loadShare, shareState, shareView } from '../../src/features/share/share-store.ts';
import {
  directionsLink,
  failureOf,
  mapLink,
  openLocationQuery,
  parseCoordinates,
} from '../../src/features/support/map.ts';
import { optionRouteFor } from '../../src/features/options/OptionOldPage.tsx';
import { session } from '../../src/lib/session.ts';
import { envelope, resetClientState, stubFetch } from './helpers.ts';

afterEach(() => {
  resetClientState();
  Object.assign(shareState, { invite: null, owner: null, text: '', failure: null });
});

const ORIGIN = 'https://app.example';
const invite = (fields: Partial<InviteState> = {}): InviteState => ({
  permission: true,
  code: 'AB12CD',
  invited: 3,
  certified: 1,
  notice: '',
  reward: { asset: 'USDT', amount: '0' },
  ...fields,
});
const state = (fields: Partial<typeof shareState> = {}) => ({
  invite: null,
  owner: null,
  text: '',
  failure: null,
  ...fields,
});

describe('the invitation link', () => {
  it('opens the register page of this app with the code filled in', () => {
    expect(inviteLink(ORIGIN, 'AB12CD')).toBe('https://app.example/#/pages/login/regist?invite=AB12CD');
    expect(new URLSearchParams(inviteLink(ORIGIN, 'A B&').split('?')[1]).get('invite')).toBe('A B&');
  });
});

describe('what the share page shows', () => {
  it('asks a visitor to log in, whatever is kept', () => {
    expect(shareView(null, state({ invite: invite(), owner: 7 }), ORIGIN)).toEqual({ kind: 'login' });
  });

  it('no link while the permission is not active', () => {
    const gated = invite({ permission: false, notice: texts.inviteNotActivated.message });
    const view = shareView(7, state({ invite: gated, owner: 7, text: 'Join me' }), ORIGIN);
    expect(view).toEqual({ kind: 'gate', invite: gated });
    expect(JSON.stringify(view)).not.toContain('regist');
  });

  it('the link and the share text once it is active', () => {
    expect(shareView(7, state({ invite: invite(), owner: 7, text: 'Join me' }), ORIGIN)).toEqual({
      kind: 'link',
      invite: invite(),
      link: 'https://app.example/#/pages/login/regist?invite=AB12CD',
      text: 'Join me',
    });
  });

  it("never shows another account's invitation (after a logout and a new login)", () => {
    expect(shareView(8, state({ invite: invite(), owner: 7 }), ORIGIN)).toEqual({ kind: 'loading' });
    expect(shareView(8, state({ invite: invite(), owner: 7, failure: 'You are offline.' }), ORIGIN)).toEqual({
      kind: 'failed',
      failure: 'You are offline.',
    });
  });

  it('loads the invitation and the share text together', async () => {
    session.token = 'token-1';
    const { calls } = stubFetch(() =>
      new URL(calls.at(-1)!.request.url).pathname === '/api/users/invite'
        ? envelope(1, 'ok', invite({ permission: false, notice: 'gate' }))
        : envelope(1, 'ok', { text: 'Join me' }),
    );
    await loadShare(7);
    expect(
      calls.map((call) => `${new URL(call.request.url).pathname}${new URL(call.request.url).search}`).sort(),
    ).toEqual(['/api/other/config?act=share', '/api/users/invite']);
    expect(shareView(7, shareState, ORIGIN)).toMatchObject({ kind: 'gate', invite: { notice: 'gate' } });
    expect(shareState.text).toBe('Join me');
  });

  it('keeps the failure for the page when the call fails', async () => {
    session.token = 'token-1';
    stubFetch(envelope(0, 'Something is wrong'));
    await expect(loadShare(7)).rejects.toThrow('Something is wrong');
    expect(shareView(7, shareState, ORIGIN)).toEqual({ kind: 'failed', failure: 'Something is wrong' });
  });
});

describe('map coordinates', () => {
  it('reads valid decimal degrees', () => {
    expect(parseCoordinates('13.7563', '100.5018')).toEqual({ lat: 13.7563, lng: 100.5018 });
    expect(parseCoordinates('-90', '180')).toEqual({ lat: -90, lng: 180 });
    expect(parseCoordinates('+0.5', '-0.12345678')).toEqual({ lat: 0.5, lng: -0.12345678 });
  });

  it('refuses anything else', () => {
    for (const [lat, lng] of [
      ['91', '0'],
      ['0', '180.5'],
      ['', '1'],
      [null, '1'],
      ['1e1', '2'],
      ['NaN', '2'],
      ['Infinity', '2'],
      ['12,5', '3'],
      ['0x10', '3'],
      ['1', '2; drop'],
      ['1.123456789', '2'],
    ])
      expect(parseCoordinates(lat ?? null, lng ?? null), `${lat},${lng}`).toBeNull();
  });

  it('links to openstreetmap.org and to the open-location page', () => {
    const place = { lat: 13.7563, lng: 100.5018 };
    expect(mapLink(place)).toBe(
      'https://www.openstreetmap.org/?mlat=13.756300&mlon=100.501800#map=17/13.756300/100.501800',
    );
    expect(directionsLink(place)).toBe('https://www.openstreetmap.org/directions?to=13.756300%2C100.501800');
    expect(openLocationQuery(place, 'My place & more')).toBe(
      'lat=13.756300&lng=100.501800&name=My%20place%20%26%20more',
    );
  });

  it('tells a refused permission from other failures', () => {
    expect([1, 2, 3].map(failureOf)).toEqual(['denied', 'unavailable', 'timeout']);
  });
});

describe('the old Options link', () => {
  it('keeps its query', () => {
    expect(optionRouteFor('coin=BTC&minutes=5')).toBe('/pages/Option/Option?coin=BTC&minutes=5');
    expect(optionRouteFor('')).toBe('/pages/Option/Option');
  });
});
