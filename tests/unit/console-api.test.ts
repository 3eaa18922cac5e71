// The console's envelope rule for ret -1: the answer ends the session the call was sent with, and no other.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { consoleMe, consoleQueues, type OperatorView } from '../../src/contract/console.ts';
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

afterEach(() => {
  vi.unstubAllGlobals();
  endSession();
});

describe('ret -1 in the console', () => {
  it('ends the session the call was sent with, with the server msg for the sign-in page', async () => {
    const held = heldFetch();
    startSession('token-a', operator('ada'));
    const call = consoleApi(consoleQueues);
    await vi.waitFor(() => expect(held).toHaveLength(1));
    expect(held[0]!.token).toBe('token-a');
    held[0]!.answer.resolve(envelope(-1, 'Signed in elsewhere'));
    await expect(call).rejects.toThrow(new ConsoleError('Signed in elsewhere', -1));
    expect(consoleSession).toMatchObject({ token: null, operator: null, notice: 'Signed in elsewhere' });
  });

  it('ends nothing for a session ended here, with another operator signed in since', async () => {
    const held = heldFetch();
    startSession('token-a', operator('ada'));
    const late = consoleApi(consoleQueues);
    await vi.waitFor(() => expect(held).toHaveLength(1));
    // The first operator signs out; the server ends token-a; the next one signs in on this tab.
    endSession();
    startSession('token-b', operator('grace'));
    held[0]!.answer.resolve(envelope(-1, 'Your login has expired'));
    await expect(late).rejects.toThrow('Your login has expired');
    expect(consoleSession).toMatchObject({ token: 'token-b', notice: '' });
    expect(consoleSession.operator?.name).toBe('grace');
    expect(sessionStorage.getItem('coinvest.console.token')).toBe('token-b');
  });

  it('leaves the sign-in page without a notice when the late answer comes after a sign-out', async () => {
    const held = heldFetch();
    startSession('token-a', operator('ada'));
    const late = consoleApi(consoleMe);
    await vi.waitFor(() => expect(held).toHaveLength(1));
    endSession();
    held[0]!.answer.resolve(envelope(-1, 'Your login has expired'));
    await expect(late).rejects.toThrow('Your login has expired');
    expect(consoleSession.notice).toBe('');
  });
});
