// @vitest-environment jsdom
// A private picture (a transfer receipt, an identity document) cannot be an <img src>: the browser
// would send no token and the server answers 404. It is fetched with the token through the API
// client and shown from a blob URL, freed when the picture goes; meanwhile a placeholder, and when
// it cannot be had, "The picture could not be loaded." The service worker never keeps one.
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PrivatePicture } from '../../src/ui/PrivatePicture.tsx';
import { isNeverCached } from '../../src/api-contract/offline-cache.ts';
import { PUBLIC_PATHS, USER_CALLS, isPublicCall, isUserCall } from '../../src/lib/cached-calls.ts';
import { session } from '../../src/lib/session.ts';
import { deferred, envelope, mountPoint, resetClientState, stubFetch } from './helpers.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const RECEIPT = '/api/uploads/Receipt1234567890';
const png = () =>
  new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), { status: 200, headers: { 'content-type': 'image/png' } });

const view = mountPoint();
let made: string[];
let revoked: string[];

beforeEach(() => {
  resetClientState();
  made = [];
  revoked = [];
  // jsdom has no object URLs: count them instead.
  URL.createObjectURL = vi.fn(() => {
    made.push(`blob:test/${made.length + 1}`);
    return made.at(-1)!;
  });
  URL.revokeObjectURL = vi.fn((url: string) => void revoked.push(url));
});
afterEach(resetClientState);

const render = (url: string, zoomable = false) =>
  act(() => view.root.render(<PrivatePicture url={url} alt="Transfer receipt" zoomable={zoomable} />));
/** Lets the fetch and React settle. */
const settle = () => act(() => new Promise((done) => setTimeout(done, 0)));

describe('a private picture', () => {
  it('is fetched with the token and shown from a blob URL, freed when it leaves the page', async () => {
    session.token = 'tok-owner';
    const answer = deferred<Response>();
    const { calls } = stubFetch(() => answer.promise);
    await render(RECEIPT);

    expect(view.container.querySelector('img')).toBeNull();
    expect(view.container.querySelector('[aria-busy="true"]')?.getAttribute('aria-label')).toBe('Transfer receipt');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.request.method).toBe('GET');
    expect(new URL(calls[0]!.request.url).pathname).toBe(RECEIPT);
    expect(calls[0]!.request.headers.get('token')).toBe('tok-owner');
    expect(calls[0]!.request.headers.get('lang')).toBe('en');

    answer.resolve(png());
    await settle();
    const img = view.container.querySelector('img')!;
    expect(img.getAttribute('src')).toBe('blob:test/1');
    expect(img.getAttribute('alt')).toBe('Transfer receipt');
    expect(revoked).toEqual([]);

    act(() => view.root.unmount());
    expect(revoked).toEqual(['blob:test/1']);
    view.root = createRoot(view.container);
  });

  it('opens full size from the same blob when it is zoomable', async () => {
    stubFetch(png());
    await render(RECEIPT, true);
    await settle();
    expect(view.container.querySelector('a')?.getAttribute('href')).toBe('blob:test/1');
    expect(view.container.querySelector('a img')?.getAttribute('src')).toBe('blob:test/1');
  });

  it('says it could not be loaded when the server refuses it (not the owner, gone)', async () => {
    const { calls } = stubFetch(envelope(0, 'The picture could not be loaded.', null, 404));
    await render(RECEIPT);
    await settle();
    expect(calls).toHaveLength(1);
    expect(view.container.querySelector('img')).toBeNull();
    expect(view.container.textContent).toBe('The picture could not be loaded.');
    expect(made).toEqual([]);
  });

  it('is not shown when the answer is no picture (an envelope with status 200)', async () => {
    stubFetch(envelope(0, 'Your login has expired, please log in again!'));
    await render(RECEIPT);
    await settle();
    expect(view.container.querySelector('img')).toBeNull();
    expect(view.container.textContent).toBe('The picture could not be loaded.');
    expect(made).toEqual([]);
  });

  it('says it could not be loaded when the network fails', async () => {
    const { calls } = stubFetch(new TypeError('Failed to fetch'));
    await render(RECEIPT);
    await vi.waitFor(async () => {
      await settle();
      expect(view.container.textContent).toBe('The picture could not be loaded.');
    });
    expect(calls.length).toBeGreaterThanOrEqual(1);
  });

  it('frees the previous blob when another picture takes its place', async () => {
    stubFetch(png());
    await render(RECEIPT);
    await settle();
    expect(view.container.querySelector('img')?.getAttribute('src')).toBe('blob:test/1');
    await render('/api/uploads/Another1234567890');
    expect(revoked).toEqual(['blob:test/1']);
    await settle();
    expect(view.container.querySelector('img')?.getAttribute('src')).toBe('blob:test/2');
  });

  it('makes no blob when the page is left before the picture arrives', async () => {
    const answer = deferred<Response>();
    stubFetch(() => answer.promise);
    await render(RECEIPT);
    act(() => view.root.unmount());
    view.root = createRoot(view.container);
    answer.resolve(png());
    await settle();
    expect(made).toEqual([]);
  });
});

describe('the service worker', () => {
  const uploads = [
    'https://app.example/api/uploads/Receipt1234567890',
    'https://api.example/base/api/uploads/Receipt1234567890?v=1',
  ];

  it('sends every uploaded picture to the network and keeps none, whatever the method', () => {
    for (const url of uploads) {
      expect(isNeverCached(url)).toBe(true);
      for (const method of ['GET', 'POST']) {
        expect(isPublicCall(method, url)).toBe(false);
        expect(isUserCall(method, url)).toBe(false);
      }
    }
  });

  it('lists no upload path among the calls it caches, and still caches those', () => {
    expect(
      [...PUBLIC_PATHS, ...USER_CALLS.map((call) => call.path)].filter((path) => path.startsWith('/uploads')),
    ).toEqual([]);
    expect(isNeverCached('https://app.example/api/coin/lists')).toBe(false);
    expect(isPublicCall('GET', 'https://app.example/api/coin/lists')).toBe(true);
    expect(isUserCall('GET', 'https://app.example/api/pay/info?id=3')).toBe(true);
    // The upload call itself (POST /users/upload) is a write: never cached either.
    expect(isUserCall('POST', 'https://app.example/api/users/upload')).toBe(false);
  });
});
