// @vitest-environment jsdom
// The blind box on the device: a draw offline fails at once and sends nothing; a draw carries the cost its button
// showed, and a refused one reads the box again; the past draws are verified here with Web Crypto — a revealed draw
// checks ✓, a tampered one ✗, a secret one waits.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { drawRoll, prizeFor, sha256Hex, type BoxDraw } from '../../src/api-contract/blindbox.ts';
import { offlineData } from '../../src/lib/offline.ts';
import { session } from '../../src/lib/session.ts';
import { blindBoxState, checkSummary, drawBox, loadDraws } from '../../src/features/blindbox/blindbox-store.ts';
import { envelope, resetClientState, stubFetch } from './helpers.ts';

const TABLE = [
  { id: 11, weight: 300_000 },
  { id: 12, weight: 700_000 },
];

/** A draw as the server records it, made with the API contract's own functions. */
async function recorded(id: number, serverSeed: string, nonce: number, revealed: boolean): Promise<BoxDraw> {
  const roll = await drawRoll(serverSeed, 'client', nonce);
  const prize = prizeFor(roll, TABLE)!;
  return {
    id,
    seed_id: 1,
    nonce,
    client_seed: 'client',
    roll,
    prize_id: prize.id,
    prize_name: `Prize ${prize.id}`,
    prize_asset: 'POINT',
    prize_amount: '10',
    cost_asset: 'POINT',
    cost: '100',
    prize_table: TABLE,
    server_hash: await sha256Hex(serverSeed),
    server_seed: revealed ? serverSeed : null,
    created_at: '2026-11-23T10:00:00.000Z',
  };
}

beforeEach(() => {
  resetClientState();
  session.token = 'token-a';
});
afterEach(() => {
  offlineData.online = true;
  resetClientState();
});

describe('the blind box store', () => {
  it('refuses a draw at once offline, sending nothing', async () => {
    const { calls } = stubFetch(envelope(1, 'ok', {}));
    offlineData.online = false;
    await expect(drawBox('points')).rejects.toThrow('You are offline. Please check your network and try again.');
    expect(calls).toHaveLength(0);
    expect(blindBoxState.drawing).toBeNull();
  });

  it('sends the cost the button showed; a refused draw reads the box again for the costs of now', async () => {
    const { calls } = stubFetch(envelope(0, 'A draw now costs 900 POINT: check the cost and draw again!', null));
    await expect(drawBox('points', '100')).rejects.toThrow('A draw now costs 900 POINT');
    await expect.poll(() => calls.length).toBe(2);
    expect(new URL(calls[0]!.request.url).pathname).toBe('/api/blindbox/draw');
    expect(Object.fromEntries(new URLSearchParams(calls[0]!.body))).toEqual({ pay: 'points', cost: '100' });
    expect(new URL(calls[1]!.request.url).pathname).toBe('/api/blindbox/info');
  });

  it('verifies the loaded draws in the browser: revealed ✓, tampered ✗, secret waits', async () => {
    const seed = 'ab'.repeat(32);
    const good = await recorded(3, seed, 2, true);
    const tampered = { ...(await recorded(2, seed, 1, true)), prize_id: 0 };
    const secret = await recorded(1, 'cd'.repeat(32), 0, false);
    stubFetch(envelope(1, 'ok', { lists: [good, tampered, secret], page: 1, total: 3 }));
    await loadDraws();
    await expect.poll(() => Object.keys(blindBoxState.checks).length).toBe(3);
    expect(blindBoxState.checks).toEqual({ 3: 'verified', 2: 'mismatch', 1: 'unrevealed' });
    expect(checkSummary(blindBoxState.draws.lists, blindBoxState.checks)).toEqual({
      verified: 1,
      mismatched: 1,
      unrevealed: 1,
    });
  });
});
