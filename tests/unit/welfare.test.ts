// @vitest-environment jsdom
// The welfare store: the tasks as the server states them, a claim marking its task claimed at
// once, a refusal leaving the server's state, and every task naming where its condition is met.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WELFARE_CODES, type WelfareTask } from '../../src/api-contract/welfare.ts';
import { ROUTES } from '../../src/api-contract/routes.ts';
import { claimReward, copyOf, loadWelfare, welfareState } from '../../src/features/welfare/welfare-store.ts';
import { session } from '../../src/lib/session.ts';
import { envelope, resetClientState, stubFetch } from './helpers.ts';

const task = (code: WelfareTask['code'], state: WelfareTask['state']): WelfareTask => ({
  code,
  asset: 'POINT',
  reward: '30',
  progress: state === 'locked' ? 0 : 1,
  held: null,
  target: 1,
  state,
  claimed_at: null,
});
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('welfare', () => {
  beforeEach(() => {
    resetClientState();
    session.token = 'token-1';
  });
  afterEach(resetClientState);

  it('names every task this version knows and where its condition is met', () => {
    expect(WELFARE_CODES.map((code) => copyOf(code)?.go)).toEqual([
      ROUTES.certificationPrimary,
      ROUTES.recharge,
      ROUTES.option,
      ROUTES.share,
    ]);
    expect(copyOf('toString')).toBeNull();
    expect(copyOf('a_newer_task')).toBeNull();
  });

  it('claims a claimable task: POSTed with a key, marked claimed at once', async () => {
    const lists = [task('first_option', 'claimable'), task('first_recharge', 'locked')];
    const { calls } = stubFetch(
      envelope(1, 'Success', { lists }),
      envelope(1, 'Success', { code: 'first_option', asset: 'POINT', reward: '30', balance: '30' }),
      () => new Promise<Response>(() => undefined),
    );
    await loadWelfare();
    expect(welfareState.tasks.map((item) => item.state)).toEqual(['claimable', 'locked']);
    expect(await claimReward('first_option')).toMatchObject({ reward: '30' });
    expect(calls[1]!.request.method).toBe('POST');
    expect(calls[1]!.body).toBe('code=first_option');
    expect(calls[1]!.request.headers.get('idempotency-key')).toBeTruthy();
    expect(welfareState.tasks.map((item) => item.state)).toEqual(['claimed', 'locked']);
  });

  it('shows a refusal and then the server’s state', async () => {
    const { calls } = stubFetch(
      envelope(1, 'Success', { lists: [task('first_option', 'claimable')] }),
      envelope(0, 'You have already claimed this reward!'),
      envelope(1, 'Success', { lists: [task('first_option', 'claimed')] }),
    );
    await loadWelfare();
    await expect(claimReward('first_option')).rejects.toThrow('You have already claimed this reward!');
    await settle();
    await settle();
    expect(calls.map((call) => new URL(call.request.url).pathname)).toEqual([
      '/api/task/welfare',
      '/api/task/welfare/claim',
      '/api/task/welfare',
    ]);
    expect(welfareState.tasks[0]!.state).toBe('claimed');
  });
});
