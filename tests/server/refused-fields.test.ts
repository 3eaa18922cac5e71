// A refusal about one field of the request names that field (the envelope's optional `field`, as the endpoint's input
// names it), so the app shows the text under it rather than in a toast apart from the form; a refusal of the request as
// a whole names none. Tried as a new user would: a withdrawal below the minimum, a wrong payment password, an address
// of another chain, a mobile number already registered, a wrong code, an option below its minimum.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { register, sendSmsCode } from '../../src/api-contract/account.ts';
import { addWallet } from '../../src/api-contract/add-wallet.ts';
import { placeOption } from '../../src/api-contract/options.ts';
import { deleteWallet } from '../../src/api-contract/payouts.ts';
import { startHarness, type Harness } from './harness.ts';
import { PASSWORD, PAYPASS, btcOptionWithMinimum, customer, moneyState, newPhone, refusedAbout } from './helpers.ts';
import { addTronWallet, newEvmAddress, withdraw } from './funds-helpers.ts';

let h: Harness;
beforeAll(async () => void (h = await startHarness()));
afterAll(() => h.close());

it('a withdrawal names the amount below the minimum, the payee not chosen and the wrong payment password', async () => {
  const user = await customer(h, '100');
  const wallet = await addTronWallet(h, user.token);
  const before = await moneyState(h, user.id);
  const to = { target: 'wallet', target_id: String(wallet.id) };
  expect(await withdraw(h, user.token, { ...to, amount: '1' })).toEqual(
    refusedAbout('The minimum amount is: 10 USDT!', 'amount'),
  );
  expect(await withdraw(h, user.token, { target: 'wallet', amount: '20' })).toEqual(
    refusedAbout('Please choose a bank card or wallet!', 'target_id'),
  );
  expect(await withdraw(h, user.token, { ...to, amount: '20', paypass: '654321' })).toEqual(
    refusedAbout('The payment password is wrong!', 'paypass'),
  );
  // The payee deleted meanwhile (in another tab, on another phone) is about the payee chosen.
  const other = await addTronWallet(h, user.token);
  expect(await h.call(deleteWallet, { id: String(other.id) }, { token: user.token })).toMatchObject({ ret: 1 });
  expect(await withdraw(h, user.token, { target: 'wallet', target_id: String(other.id), amount: '20' })).toEqual(
    refusedAbout('The bank card or wallet does not exist!', 'target_id'),
  );
  // A payment password of the wrong shape is the form's own rule: named by where the rule failed.
  expect(await withdraw(h, user.token, { ...to, amount: '20', paypass: '12' })).toMatchObject({ field: 'paypass' });
  expect(await moneyState(h, user.id)).toEqual(before);
});

it('a wallet whose address is of another chain names the address', async () => {
  const user = await customer(h);
  const answer = await h.call(
    addWallet,
    { alias: 'Mine', currency: 'USDT', chain: 'TRC20', address: newEvmAddress() },
    { token: user.token },
  );
  expect(answer).toEqual(refusedAbout('The address does not match the chosen chain!', 'address'));
});

it('registration names the mobile number already registered and the wrong code; the code request its userphone', async () => {
  const taken = await customer(h);
  h.clock.advance(61_000);
  expect(await h.call(sendSmsCode, { userphone: taken.phone })).toEqual(
    refusedAbout('This mobile number is already registered!', 'userphone'),
  );
  const form = { mode: 'phone', code: '000000', password: PASSWORD, paypass: PAYPASS, currency: 'THB' };
  expect(await h.call(register, { ...form, phone: taken.phone })).toEqual(
    refusedAbout('This mobile number is already registered!', 'phone'),
  );
  const phone = newPhone();
  h.clock.advance(61_000);
  expect((await h.call(sendSmsCode, { userphone: phone })).ret).toBe(1);
  const wrong = h.codeFor(phone) === '000000' ? '111111' : '000000';
  expect(await h.call(register, { ...form, phone, code: wrong })).toEqual(
    refusedAbout('The verification code is wrong or has expired!', 'code'),
  );
});

it('an option below its minimum names the amount; a refusal of the whole request names no field', async () => {
  const user = await customer(h, '100');
  const product = await btcOptionWithMinimum(h, '10');
  const order = { code: 'BTC', direction: 'up', product_id: String(product.id) };
  expect(await h.call(placeOption, { ...order, amount: '5' }, { token: user.token })).toEqual(
    refusedAbout('The minimum purchase amount is: 10 USDT!', 'amount'),
  );
  const unknown = await h.call(placeOption, { ...order, amount: '20', product_id: '999999' }, { token: user.token });
  expect(unknown).toMatchObject({ ret: 0 });
  expect(unknown).not.toHaveProperty('field');
});
