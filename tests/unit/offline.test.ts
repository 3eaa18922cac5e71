// @vitest-environment jsdom
// Offline: writes are never queued silently; offline, they fail at once.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { api, apiBlob, ApiError } from '../../src/lib/api.ts';
import { login } from '../../src/api-contract/account.ts';
import { config } from '../../src/api-contract/content.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { loading } from '../../src/lib/loading.ts';
import { offlineData } from '../../src/lib/offline.ts';
import { envelope, resetClientState, stubFetch } from './helpers.ts';

const setOnline = (online: boolean) =>
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });

beforeEach(resetClientState);
afterEach(() => {
  // Back to jsdom's own getter on the prototype.
  delete (navigator as { onLine?: boolean }).onLine;
  resetClientState();
});

describe('offline', () => {
  it('a POST rejects at once with the offline text and fetch is not called', async () => {
    setOnline(false);
    const { fetch } = stubFetch(envelope(1, '', { token: 't' }));
    const error = (await api(login, { username: 'customer1', password: 'secret1' }).catch(
      (caught: unknown) => caught,
    )) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe(texts.offline.message);
    expect(error.message).toBe('You are offline. Please check your network and try again.');
    expect(fetch).not.toHaveBeenCalled();
    expect(loading.visible).toBe(false);
  });

  it('the same POST goes out when online', async () => {
    setOnline(true);
    const { fetch } = stubFetch(envelope(1, '', { token: 't' }));
    await expect(api(login, { username: 'customer1', password: 'secret1' })).resolves.toEqual({ token: 't' });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('a GET still asks the network (the service worker may answer from its cache)', async () => {
    setOnline(false);
    const { fetch } = stubFetch(envelope(1, '', { scroll_notice: 'cached' }));
    await expect(api(config, { act: 'system' })).resolves.toEqual({ scroll_notice: 'cached' });
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe('offline while the browser says online (devtools "Offline" after a reload, a network that answers nothing)', () => {
  it('a call that finds the network gone keeps the usual text; the next one tries once and says offline; a fresh answer ends it', async () => {
    const { fetch } = stubFetch(new TypeError('Failed to fetch'));
    await expect(api(config, { act: 'system' })).rejects.toThrow(texts.tooManyRequests.message);
    expect(fetch).toHaveBeenCalledTimes(5);
    expect(offlineData.online).toBe(false);

    fetch.mockClear();
    await expect(api(login, { username: 'customer1', password: 'secret1' })).rejects.toThrow(texts.offline.message);
    expect(fetch).toHaveBeenCalledTimes(1);

    stubFetch(envelope(1, '', { token: 't' }));
    await api(login, { username: 'customer1', password: 'secret1' });
    expect(offlineData.online).toBe(true);
  });

  it('a picture download tells it as a call does: a network failure, then the network’s answer that ends it', async () => {
    const { fetch } = stubFetch(new TypeError('Failed to fetch'));
    await expect(apiBlob('/api/uploads/abc123')).rejects.toThrow(texts.tooManyRequests.message);
    expect(fetch).toHaveBeenCalledTimes(5);
    expect(offlineData.online).toBe(false);

    fetch.mockClear();
    await expect(apiBlob('/api/uploads/abc123')).rejects.toThrow(texts.offline.message);
    expect(fetch).toHaveBeenCalledTimes(1);

    stubFetch(new Response(new Uint8Array([0xff, 0xd8, 0xff]), { headers: { 'content-type': 'image/jpeg' } }));
    expect((await apiBlob('/api/uploads/abc123')).size).toBe(3);
    expect(offlineData.online).toBe(true);
  });
});
