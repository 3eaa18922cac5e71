// @vitest-environment jsdom
// A file the app makes on the device reaches the browser as a download that Safari and Firefox complete: the link is
// in the document when clicked, and its object URL stays valid a minute after (revoked at once, those browsers save
// nothing). One helper (src/lib/download.ts) serves every download; the proof of liabilities is checked through it.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { DOWNLOAD_URL_LIFETIME_MS, saveFile } from '../../src/lib/download.ts';
import { downloadProof } from '../../src/features/liabilities/liabilities-store.ts';
import type { LiabilityProof } from '../../src/api-contract/liabilities-verify.ts';

/** What each click of a download link saw: its name, its address, whether it was in the document. */
let clicks: { name: string; href: string; inDocument: boolean }[];
let made: Blob[];
let revoked: string[];

beforeEach(() => {
  vi.useFakeTimers();
  clicks = [];
  made = [];
  revoked = [];
  // jsdom has no object URLs: stand-ins that record what they are given.
  URL.createObjectURL = (blob: Blob) => (made.push(blob), `blob:test/${made.length}`);
  URL.revokeObjectURL = (url: string) => void revoked.push(url);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicks.push({ name: this.download, href: this.href, inDocument: this.isConnected });
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

it('clicks a link in the document, removes it, and revokes its URL only a minute later', () => {
  saveFile('statement.csv', new Blob(['a,b'], { type: 'text/csv' }));
  expect(clicks).toEqual([{ name: 'statement.csv', href: 'blob:test/1', inDocument: true }]);
  expect(document.querySelectorAll('a').length).toBe(0);
  vi.advanceTimersByTime(DOWNLOAD_URL_LIFETIME_MS - 1);
  expect(revoked).toEqual([]);
  vi.advanceTimersByTime(1);
  expect(revoked).toEqual(['blob:test/1']);
  expect(DOWNLOAD_URL_LIFETIME_MS).toBe(60_000);
});

it('saves the proof of liabilities the same way, as its indented JSON', async () => {
  const proof = { tree: 42, assets: ['USDT'] } as unknown as LiabilityProof;
  downloadProof(proof);
  expect(clicks).toEqual([{ name: 'liabilities-proof-42.json', href: 'blob:test/1', inDocument: true }]);
  expect(made[0]!.type).toBe('application/json');
  expect(await made[0]!.text()).toBe(JSON.stringify(proof, null, 2));
  vi.advanceTimersByTime(1_000);
  expect(revoked).toEqual([]);
  vi.advanceTimersByTime(DOWNLOAD_URL_LIFETIME_MS);
  expect(revoked).toEqual(['blob:test/1']);
});
