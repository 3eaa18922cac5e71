// Passkeys: adding one takes the login password (and the authenticator code when
// two-factor is on); the passkey then signs in without a name or a password; each challenge works
// once and for a few minutes; an answer from another page, a copied authenticator (its counter going
// back), a passkey removed or another account's are refused; the list and removal are the owner's
// only. Answers come from a software authenticator that builds them as a platform authenticator does.
import { serverTexts } from '../../src/api-contract/server-texts.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { PASSWORD, customer, refused, withTwoFactor } from './helpers.ts';
import { SoftAuthenticator } from './soft-authenticator.ts';
import { userInfo } from '../../src/api-contract/account.ts';
import { messages } from '../../src/api-contract/messages.ts';
import { signedInSessions } from '../../src/api-contract/sessions.ts';
import {
  addPasskey,
  listPasskeys,
  passkeyCreationOptions,
  passkeySignIn,
  passkeySignInOptions,
  removePasskey,
  PASSKEY_LIMIT,
} from '../../src/api-contract/passkeys.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { relyingPartyOf } from '../../src/server/domain/passkeys.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const ORIGIN = 'https://app.example.com';
const PHONE =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
/** A request from the app opened at https://app.example.com on a phone. */
const page = (token?: string, origin = ORIGIN) => ({
  token,
  headers: { origin, host: 'app.example.com', 'user-agent': PHONE },
});

const FAILED = refused(texts.passkeyFailed.message);
const TIMED_OUT = refused(serverTexts.passkeyTimedOut.message);
const UNKNOWN = refused(serverTexts.passkeyNotRecognised.message);

/** Adds a passkey to the account of `token` from `authenticator`, password given: the stored passkey. */
async function addOne(token: string, authenticator: SoftAuthenticator, extra: Record<string, string> = {}) {
  const options = await h.call(passkeyCreationOptions, { password: PASSWORD, ...extra }, page(token));
  expect(options, JSON.stringify(options)).toMatchObject({ ret: 1 });
  const added = await h.call(
    addPasskey,
    { credential: JSON.stringify(authenticator.create(options.data.options as never)) },
    page(token),
  );
  expect(added, JSON.stringify(added)).toMatchObject({ ret: 1 });
  return added.data;
}

/** Signs in with the authenticator's newest passkey (or as told): the answer of the sign-in call. */
async function signInWith(authenticator: SoftAuthenticator, how: Parameters<SoftAuthenticator['get']>[1] = {}) {
  const options = await h.call(passkeySignInOptions, {}, page());
  expect(options).toMatchObject({ ret: 1 });
  return h.call(
    passkeySignIn,
    { credential: JSON.stringify(authenticator.get(options.data.options as never, how)) },
    page(),
  );
}

describe('adding a passkey', () => {
  it('takes the login password; the passkey is listed with the device it was made on, and the owner gets a message', async () => {
    const user = await customer(h);
    expect(await h.call(passkeyCreationOptions, { password: '' }, page(user.token))).toEqual(
      refused(texts.enterLoginPassword.message),
    );
    expect(await h.call(passkeyCreationOptions, { password: 'wrong123' }, page(user.token))).toEqual(
      refused(serverTexts.wrongLoginPassword.message),
    );
    const options = await h.call(passkeyCreationOptions, { password: PASSWORD }, page(user.token));
    const creation = options.data.options as unknown as {
      rp: { id: string; name: string };
      authenticatorSelection: { residentKey: string; userVerification: string };
    };
    expect(creation.rp).toEqual({ id: 'app.example.com', name: 'Coinvest' });
    expect(creation.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });

    const passkey = await addOne(user.token, new SoftAuthenticator(ORIGIN));
    expect(passkey).toMatchObject({ name: 'Chrome, Android', last_used_at: null, synced: false });
    expect((await h.call(listPasskeys, {}, page(user.token))).data).toMatchObject({
      lists: [{ id: passkey.id }],
      total: 1,
    });
    const inbox = await h.call(messages, { status: 'unread', page: '1' }, { token: user.token });
    expect(inbox.data.lists[0]).toMatchObject({ title: 'Passkey added' });
    expect(inbox.data.lists[0]!.content).toContain('Chrome, Android');
  });

  it('with two-factor on, also takes the authenticator code', async () => {
    const user = await customer(h);
    const { code } = await withTwoFactor(h, user.token);
    expect(await h.call(passkeyCreationOptions, { password: PASSWORD }, page(user.token))).toEqual(
      refused(texts.enterAuthenticatorCode.message),
    );
    await addOne(user.token, new SoftAuthenticator(ORIGIN), { otp: code() });
  });

  it('needs the page to name the host it was sent to (or WEBAUTHN_RP_ID): otherwise passkeys are unavailable', async () => {
    const user = await customer(h);
    const unavailable = refused(texts.passkeyUnavailable.message);
    expect(await h.call(passkeyCreationOptions, { password: PASSWORD }, { token: user.token })).toEqual(unavailable);
    expect(
      await h.call(passkeyCreationOptions, { password: PASSWORD }, page(user.token, 'https://elsewhere.example')),
    ).toEqual(unavailable);
    expect(await h.call(passkeySignInOptions, {}, { headers: { origin: 'null', host: 'app.example.com' } })).toEqual(
      unavailable,
    );
    expect(relyingPartyOf({ id: 'example.com', origins: [] }, 'https://evil.example', 'evil.example')).toEqual({
      id: 'example.com',
      origins: ['https://example.com'],
    });
    expect(relyingPartyOf({ id: null, origins: [] }, 'https://a.example:8443', 'a.example:8443')).toEqual({
      id: 'a.example',
      origins: ['https://a.example:8443'],
    });
  });

  it("refuses an answer made for another page, another account's challenge, one answered already, and the same authenticator twice", async () => {
    const [owner, other] = [await customer(h), await customer(h)];
    const authenticator = new SoftAuthenticator(ORIGIN);
    const options = (await h.call(passkeyCreationOptions, { password: PASSWORD }, page(owner.token))).data
      .options as never;
    expect(
      await h.call(
        addPasskey,
        { credential: JSON.stringify(authenticator.create(options, { origin: 'https://phish.example' })) },
        page(owner.token),
      ),
    ).toEqual(FAILED);

    const again = (await h.call(passkeyCreationOptions, { password: PASSWORD }, page(owner.token))).data
      .options as never;
    const made = JSON.stringify(authenticator.create(again));
    // The challenge was handed to the owner: another account cannot answer it.
    expect(await h.call(addPasskey, { credential: made }, page(other.token))).toEqual(TIMED_OUT);
    expect(await h.call(addPasskey, { credential: made }, page(owner.token))).toMatchObject({ ret: 1 });
    expect(await h.call(addPasskey, { credential: made }, page(owner.token))).toEqual(TIMED_OUT);
    expect(await h.call(addPasskey, { credential: '{"id":1}' }, page(owner.token))).toEqual(FAILED);
    expect(await h.call(addPasskey, { credential: 'x'.repeat(20_001) }, page(owner.token))).toEqual(FAILED);
    expect((await h.call(listPasskeys, {}, page(owner.token))).data.total).toBe(1);
    expect((await h.call(listPasskeys, {}, page(other.token))).data.total).toBe(0);
  });

  it(`stops at ${PASSKEY_LIMIT} per account`, async () => {
    const user = await customer(h);
    for (let i = 0; i < PASSKEY_LIMIT; i++) await addOne(user.token, new SoftAuthenticator(ORIGIN));
    expect(await h.call(passkeyCreationOptions, { password: PASSWORD }, page(user.token))).toEqual(
      refused(serverTexts.passkeyLimit.message),
    );
  });
});

describe('signing in with a passkey', () => {
  it('needs no name or password: the token works, and the Devices page shows the session; the passkey notes when it was used', async () => {
    const user = await customer(h);
    const authenticator = new SoftAuthenticator(ORIGIN);
    const passkey = await addOne(user.token, authenticator);
    const signedIn = await signInWith(authenticator);
    expect(signedIn, JSON.stringify(signedIn)).toMatchObject({ ret: 1 });
    const { token } = signedIn.data;
    expect((await h.call(userInfo, {}, { token })).data.id).toBe(
      (await h.call(userInfo, {}, { token: user.token })).data.id,
    );
    const sessions = (await h.call(signedInSessions, {}, { token })).data.lists;
    expect(sessions.find((row) => row.current)).toMatchObject({ device: 'Chrome, Android' });
    expect((await h.call(listPasskeys, {}, page(token))).data.lists[0]).toMatchObject({
      id: passkey.id,
      last_used_at: h.clock.now().toISOString(),
    });
  });

  it('refuses a replayed answer, an expired challenge, another page, a counter that goes back, and a passkey this site does not hold', async () => {
    const user = await customer(h);
    const authenticator = new SoftAuthenticator(ORIGIN);
    await addOne(user.token, authenticator);

    const options = (await h.call(passkeySignInOptions, {}, page())).data.options as never;
    const answer = JSON.stringify(authenticator.get(options));
    expect(await h.call(passkeySignIn, { credential: answer }, page())).toMatchObject({ ret: 1 });
    expect(await h.call(passkeySignIn, { credential: answer }, page())).toEqual(TIMED_OUT);

    const late = (await h.call(passkeySignInOptions, {}, page())).data.options as never;
    h.clock.advance(301_000);
    expect(await h.call(passkeySignIn, { credential: JSON.stringify(authenticator.get(late)) }, page())).toEqual(
      TIMED_OUT,
    );

    expect(await signInWith(authenticator, { origin: 'https://phish.example' })).toEqual(FAILED);
    // A copy of the authenticator answering with an older count: a cloned key.
    const count = authenticator.held.at(-1)!.counter;
    expect(await signInWith(authenticator, { counter: count - 2 })).toEqual(FAILED);
    expect(await signInWith(authenticator)).toMatchObject({ ret: 1 });

    const stranger = new SoftAuthenticator(ORIGIN);
    stranger.create({ challenge: 'x', rp: { id: 'app.example.com' }, user: { id: 'MQ' } });
    expect(await signInWith(stranger)).toEqual(UNKNOWN);
  });

  it('an authenticator without a counter (a synced passkey) signs in again and again', async () => {
    const user = await customer(h);
    const synced = new SoftAuthenticator(ORIGIN, 0);
    await addOne(user.token, synced);
    for (let i = 0; i < 3; i++) expect(await signInWith(synced)).toMatchObject({ ret: 1 });
  });

  it('a passkey that says it belongs to another account is refused', async () => {
    const user = await customer(h);
    const authenticator = new SoftAuthenticator(ORIGIN);
    await addOne(user.token, authenticator);
    authenticator.held.at(-1)!.userHandle = Buffer.from('999999').toString('base64url');
    expect(await signInWith(authenticator)).toEqual(UNKNOWN);
  });
});

describe('removing a passkey', () => {
  it("is the owner's alone, and takes effect at once", async () => {
    const [owner, other] = [await customer(h), await customer(h)];
    const authenticator = new SoftAuthenticator(ORIGIN);
    const passkey = await addOne(owner.token, authenticator);
    expect(await h.call(removePasskey, { id: passkey.id }, { token: other.token })).toEqual(
      refused(texts.passkeyNotFound.message),
    );
    expect(await signInWith(authenticator)).toMatchObject({ ret: 1 });
    expect(await h.call(removePasskey, { id: passkey.id }, { token: owner.token })).toMatchObject({ ret: 1 });
    const inbox = await h.call(messages, { status: 'unread', page: '1' }, { token: owner.token });
    expect(inbox.data.lists[0]).toMatchObject({ title: 'Passkey removed' });
    expect(await h.call(removePasskey, { id: passkey.id }, { token: owner.token })).toEqual(
      refused(texts.passkeyNotFound.message),
    );
    expect(await signInWith(authenticator)).toEqual(UNKNOWN);
    expect((await h.call(listPasskeys, {}, page(owner.token))).data.total).toBe(0);
  });
});
