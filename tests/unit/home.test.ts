// @vitest-environment jsdom
// Home's data at an app start on Home (features/home/home-store.ts): the load the route table starts
// as the page's code arrives is the one the page shows (asked once); a later visit asks again.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { home, loadHomeForPage, prepareHome } from '../../src/features/home/home-store.ts';
import { envelope, resetClientState, stubFetch } from './helpers.ts';
import { currentLocale } from '../../src/lib/i18n.ts';

const slide = { id: 1, image: '/slides/slide-1.svg', title: 'Trade options in minutes', url: '' };

beforeEach(() => {
  resetClientState();
  home.slides = [];
  home.notice = '';
  home.lang = '';
});
afterEach(() => {
  resetClientState();
  vi.unstubAllGlobals();
});

/** The fake server: slides for /content/slide, the notice for /other/config. */
const answers = (request: Request) =>
  new URL(request.url).pathname.endsWith('/content/slide')
    ? envelope(1, 'Success', { lists: [slide] })
    : envelope(1, 'Success', { scroll_notice: 'Welcome' });

describe('Home at an app start', () => {
  it('shows what the start asked for, without asking again; the next visit asks afresh', async () => {
    const { fetch, calls } = stubFetch(envelope(1, 'Success', {}));
    fetch.mockImplementation(async (input: RequestInfo | URL) => {
      calls.push({ request: input as Request, body: '' });
      return answers(input as Request);
    });
    prepareHome();
    await loadHomeForPage();
    expect(home.slides).toEqual([slide]);
    expect(home.notice).toBe('Welcome');
    expect(calls.map((call) => new URL(call.request.url).pathname)).toEqual([
      '/api/content/slide',
      '/api/other/config',
    ]);

    await loadHomeForPage();
    expect(calls).toHaveLength(4);
  });

  it('asks on its own when the app did not start on Home', async () => {
    const { fetch, calls } = stubFetch(envelope(1, 'Success', {}));
    fetch.mockImplementation(async (input: RequestInfo | URL) => {
      calls.push({ request: input as Request, body: '' });
      return answers(input as Request);
    });
    await loadHomeForPage();
    expect(calls).toHaveLength(2);
    expect(home.slides).toEqual([slide]);
  });

  it('shows the slides as soon as they arrive, while the notice is still on its way', async () => {
    const { fetch } = stubFetch(envelope(1, 'Success', {}));
    let answerNotice: (response: Response) => void = () => {};
    fetch.mockImplementation(async (input: RequestInfo | URL) =>
      new URL((input as Request).url).pathname.endsWith('/content/slide')
        ? answers(input as Request)
        : new Promise<Response>((resolve) => (answerNotice = resolve)),
    );
    const load = loadHomeForPage();
    await expect.poll(() => home.slides).toEqual([slide]);
    expect(home.notice).toBe('');
    answerNotice(envelope(1, 'Success', { scroll_notice: 'Welcome' }));
    await load;
    expect(home.notice).toBe('Welcome');
  });

  it('starts the download of the first slide as the slides arrive, ahead of the render, at high priority', async () => {
    const pictures: { src: string; fetchPriority: string }[] = [];
    vi.stubGlobal(
      'Image',
      class {
        src = '';
        fetchPriority = 'auto';
        constructor() {
          pictures.push(this);
        }
      },
    );
    const second = { ...slide, id: 2, image: '/slides/slide-2.svg' };
    const { fetch } = stubFetch(envelope(1, 'Success', {}));
    fetch.mockImplementation(async (input: RequestInfo | URL) =>
      new URL((input as Request).url).pathname.endsWith('/content/slide')
        ? envelope(1, 'Success', { lists: [slide, second] })
        : answers(input as Request),
    );
    await loadHomeForPage();
    expect(pictures).toEqual([{ src: '/slides/slide-1.svg', fetchPriority: 'high' }]);
  });
});

describe('Home after the language changed', () => {
  const refused = () => stubFetch(envelope(0, 'Server busy', null));
  const other = currentLocale() === 'ar' ? 'en' : 'ar';

  it('shows no notice or slides read in the other language when the new language’s cannot be read', async () => {
    Object.assign(home, { slides: [slide], notice: 'The notice in the other language', lang: other });
    refused();
    await expect(loadHomeForPage()).rejects.toThrow();
    expect([home.notice, home.slides, home.lang]).toEqual(['', [], currentLocale()]);
  });

  it('keeps showing the last notice and slides of the same language when they cannot be read', async () => {
    Object.assign(home, { slides: [slide], notice: 'Welcome', lang: currentLocale() });
    refused();
    await expect(loadHomeForPage()).rejects.toThrow();
    expect([home.notice, home.slides]).toEqual(['Welcome', [slide]]);
  });
});
