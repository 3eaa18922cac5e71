// @vitest-environment jsdom
// The console's envelope rule for ret -1: the answer ends the session the call was sent with, and no other.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { consoleMe, consoleQueues, type OperatorView } from '../../src/api-contract/console.ts';
import { ConsoleError, consoleApi } from '../../src/console/api.ts';
import { consoleSession, endSession, startSession } from '../../src/console/session.ts';
import { deferred, envelope } from './helpers.ts';

const operator = (name: string) => ({ name, role: 'admin' }) as unknown as OperatorView;

/** A fetch whose answers the test hands out one by one, in the order the calls went out. */
function heldFetch() {
  const held: { token: string | null; answer: ReturnType<typeof deferred<Response>> }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((_url: string, init: RequestInit) => {
      const answer = deferred<Response>();
      held.push({ token: new Headers(init.headers).get('token'), answer });
      return answer.promise;
    }),
  );
  return held;
}

/** Signs the first operator in with token-a and sends `endpoint`; its answer waits for the test. */
async function sentAsFirst(endpoint: typeof consoleQueues | typeof consoleMe) {
  const held = heldFetch();
  startSession('token-a', operator('first.op'));
  const call = consoleApi(endpoint);
  await vi.waitFor(() => expect(held).toHaveLength(1));
  expect(held[0]!.token).toBe('token-a');
  return { call, answer: held[0]!.answer };
}

afterEach(() => {
  vi.unstubAllGlobals();
  endSession();
});

describe('ret -1 in the console', () => {
  it('ends the session the call was sent with, with the server msg for the sign-in page', async () => {
    const { call, answer } = await sentAsFirst(consoleQueues);
    answer.resolve(envelope(-1, 'Signed in elsewhere'));
    await expect(call).rejects.toThrow(new ConsoleError('Signed in elsewhere', -1));
    expect(consoleSession).toMatchObject({ token: null, operator: null, notice: 'Signed in elsewhere' });
  });

  it('ends nothing for a session ended here, with another operator signed in since', async () => {
    const { call: late, answer } = await sentAsFirst(consoleQueues);
    // The first operator signs out; the server ends token-a; the next one signs in on this tab.
    endSession();
    startSession('token-b', operator('next.op'));
    answer.resolve(envelope(-1, 'Your login has expired'));
    await expect(late).rejects.toThrow('Your login has expired');
    expect(consoleSession).toMatchObject({ token: 'token-b', notice: '' });
    expect(consoleSession.operator?.name).toBe('next.op');
    expect(sessionStorage.getItem('coinvest.console.token')).toBe('token-b');
  });

  it('leaves the sign-in page without a notice when the late answer comes after a sign-out', async () => {
    const { call: late, answer } = await sentAsFirst(consoleMe);
    endSession();
    answer.resolve(envelope(-1, 'Your login has expired'));
    await expect(late).rejects.toThrow('Your login has expired');
    expect(consoleSession.notice).toBe('');
  });
});
