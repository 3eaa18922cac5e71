// The invitation: a new account has no invitation permission and gets the not-activated text; a
// verified primary certification or the operator's `invite grant` activates it; `invite revoke`
// withdraws the operator's grant only; the counts are the people registered with the code and
// how many of them are certified.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { TOKEN_EXPIRED, customer, registerByPhone } from './helpers.ts';
import { certifyPrimary, ops, opsOk } from './funds-helpers.ts';
import { inviteState } from '../../src/api-contract/share.ts';
import { userInfo } from '../../src/api-contract/account.ts';
import { messages } from '../../src/api-contract/messages.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { translator } from '../../src/server/i18n.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const GATE = 'Your account has not yet activated the invitation permission!';

const certify = (token: string) => certifyPrimary(h, token);

it('the gate text is the API contract text, word for word', () => {
  expect(texts.inviteNotActivated.message).toBe(GATE);
});

it('a new account has no invitation permission: the gate text, its code, nobody invited', async () => {
  const user = await customer(h);
  const code = (await h.call(userInfo, {}, { token: user.token })).data.invite_code;
  expect(await h.call(inviteState, {}, { token: user.token })).toEqual({
    ret: 1,
    msg: 'Success',
    data: { permission: false, code, invited: 0, certified: 0, notice: GATE, reward: { asset: 'USDT', amount: '0' } },
  });
  // In the request language, like every text of the server.
  const arabic = await h.call(inviteState, {}, { token: user.token, lang: 'ar' });
  expect(arabic.data.notice).toBe(translator('ar')(texts.inviteNotActivated));
});

it('needs a login', async () => {
  expect(await h.call(inviteState, {})).toEqual(TOKEN_EXPIRED);
});

it('counts the people registered with the code, and those of them whose primary certification is verified', async () => {
  const inviter = await customer(h);
  const code = (await h.call(userInfo, {}, { token: inviter.token })).data.invite_code;
  const friends = [
    await registerByPhone(h, undefined, { invite: code }),
    await registerByPhone(h, undefined, { invite: code.toLowerCase() }),
  ];
  await customer(h); // registered without a code: not counted
  expect((await h.call(inviteState, {}, { token: inviter.token })).data).toMatchObject({
    invited: 2,
    certified: 0,
    permission: false,
  });

  await certify(friends[0]!.token);
  expect((await h.call(inviteState, {}, { token: inviter.token })).data).toMatchObject({
    invited: 2,
    certified: 1,
    permission: false,
  });
});

it('a verified primary certification activates the permission (and clears the gate text)', async () => {
  const user = await customer(h);
  expect((await h.call(inviteState, {}, { token: user.token })).data.permission).toBe(false);
  await certify(user.token);
  expect((await h.call(inviteState, {}, { token: user.token })).data).toMatchObject({ permission: true, notice: '' });
  // The operator has nothing of theirs to revoke: the certification keeps granting it.
  expect(await ops(h, 'invite', 'revoke', user.phone, 'Abuse of invitations')).toEqual({
    ok: false,
    output: `${user.phone} has no operator's grant to revoke.`,
  });
  expect((await h.call(inviteState, {}, { token: user.token })).data.permission).toBe(true);
});

it('the operator grants it with a reason and revokes it with a reason the customer reads', async () => {
  const user = await customer(h);
  expect(await opsOk(h, 'invite', 'grant', user.phone, 'Partner programme')).toBe(
    `Invitation permission granted to ${user.phone} (user ${user.id}): Partner programme`,
  );
  expect((await h.call(inviteState, {}, { token: user.token })).data).toMatchObject({ permission: true, notice: '' });
  expect(await opsOk(h, 'invite', 'grant', user.phone, 'Again')).toBe(
    `${user.phone} already has the operator's grant; nothing changed.`,
  );
  expect(await opsOk(h, 'invite', 'show', user.phone)).toContain(
    'invitation permission active (granted by the operator)',
  );

  await opsOk(h, 'invite', 'revoke', user.phone, 'The partner programme has ended');
  expect((await h.call(inviteState, {}, { token: user.token })).data).toMatchObject({
    permission: false,
    notice: GATE,
  });
  const inbox = await h.call(messages, { page: '1' }, { token: user.token });
  expect(
    inbox.data.lists.map((message: { title: string; content: string }) => [message.title, message.content]),
  ).toContainEqual(['Invitation permission withdrawn', 'The partner programme has ended']);
});

it('refuses operator mistakes and changes nothing', async () => {
  const user = await customer(h);
  expect(await ops(h, 'invite', 'grant', 'nobody-here', 'x')).toEqual({ ok: false, output: 'No user "nobody-here".' });
  expect((await ops(h, 'invite', 'grant', user.phone)).ok).toBe(false);
  expect((await ops(h, 'invite', 'promote', user.phone, 'x')).output).toBe('invite: use one of grant, revoke, show.');
  expect((await h.call(inviteState, {}, { token: user.token })).data.permission).toBe(false);
});
