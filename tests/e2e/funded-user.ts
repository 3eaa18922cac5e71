// A new customer with money, made the way money arrives in production (the end-to-end server runs in
// production mode, where the operator's test credit is refused): a USDT recharge sent from Node and
// approved with the real operator command.
import { randomBytes } from 'node:crypto';
import { operator } from './operator.ts';
import { callApi, registerUser } from './pwa.ts';

/** Registers `phone` and credits it `usdt` USDT through an approved recharge; resolves with a session token. */
export async function fundedUser(phone: string, password: string, paypass: string, usdt: string): Promise<string> {
  await registerUser(phone, password, paypass);
  const { data } = await callApi<{ token: string }>('/users/login', { form: { username: phone, password } });
  await creditUsdt(phone, data.token, usdt);
  return data.token;
}

/** Credits the customer `phone` (signed in with `token`) `usdt` USDT through a recharge the operator approves. */
export async function creditUsdt(phone: string, token: string, usdt: string): Promise<void> {
  const channels = await callApi<{ lists: { id: number; kind: string; currency: string }[] }>('/pay/lists', {
    method: 'GET',
    token,
  });
  const usdtChannel = channels.data.lists.find((channel) => channel.kind === 'crypto' && channel.currency === 'USDT');
  if (!usdtChannel) throw new Error('no USDT recharge channel is seeded');
  const hash = randomBytes(32).toString('hex');
  const sent = await callApi<{ id: number }>('/pay/submit', {
    token,
    form: { kind: 'crypto', channel_id: String(usdtChannel.id), amount: usdt, hash },
  });
  if (sent.ret !== 1) throw new Error(`the recharge of ${phone} was refused: ${sent.msg}`);
  const approved = await operator('recharge', 'approve', String(sent.data.id));
  if (!approved.includes('approved')) throw new Error(`the recharge of ${phone} was not approved: ${approved}`);
}

/** A bank a test card is added at: its code and IFSC as the seeded banks list them. */
export interface TestBank {
  bank_code: string;
  ifsc: string;
}
/** Kasikornbank, the bank the journeys withdraw to. */
export const KASIKORNBANK: TestBank = { bank_code: 'KBANK', ifsc: 'KASI0001234' };

/**
 * Adds a bank card in the name of Somchai Jaidee to the customer `phone` (signed in with `token`), numbered
 * `<prefix><the phone's last 8 digits>` so each customer's card is its own; throws when the server refuses it.
 */
export async function addBankCard(phone: string, token: string, bank = KASIKORNBANK, prefix = '12'): Promise<void> {
  const form = {
    real_name: 'Somchai Jaidee',
    ifsc: bank.ifsc,
    bank_code: bank.bank_code,
    bank_number: `${prefix}${phone.slice(-8)}`,
    phone,
    email: 'somchai@example.com',
  };
  const added = await callApi('/users/bank/add', { token, form });
  if (added.ret !== 1) throw new Error(`no bank card for ${phone}: ${added.msg}`);
}
