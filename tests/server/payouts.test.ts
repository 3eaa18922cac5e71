// Where withdrawals go: bank cards, every field required and checked, at most five,
// the account number never sent back whole; wallets whose address must pass its chain's standard, the chain
// the currency, each address once. A refusal adds nothing.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { customer, expectLedgerBalanced, refused } from './helpers.ts';
import {
  addCard,
  addTronWallet,
  cardForm,
  cryptoRecharge,
  newBankNumber,
  newEvmAddress,
  newTronAddress,
} from './funds-helpers.ts';
import { addBankCard, bankCards, deleteBankCard, deleteWallet, wallets } from '../../src/api-contract/payouts.ts';
import { addWallet } from '../../src/api-contract/add-wallet.ts';
import { rechargeChannels } from '../../src/api-contract/funds.ts';
import { BANK_CODES, BANK_NAMES, MAX_BANK_CARDS, MAX_WALLETS } from '../../src/api-contract/constants.ts';
import {
  bankCards as cardRows,
  rechargeChannels as channelRows,
  wallets as walletRows,
} from '../../src/server/db/schema.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
afterEach(() => expectLedgerBalanced(h));

const cardsOf = (userId: number) =>
  h.database.db.select().from(cardRows).where(eq(cardRows.userId, userId)).orderBy(asc(cardRows.id));
const walletsOf = (userId: number) =>
  h.database.db.select().from(walletRows).where(eq(walletRows.userId, userId)).orderBy(asc(walletRows.id));

describe('bank cards', () => {
  it('adds a card and shows only the last four digits of its number, in the answer and the list', async () => {
    const user = await customer(h);
    const res = await h.call(
      addBankCard,
      cardForm({ bank_number: '907315264801', ifsc: 'kasi0001234', email: 'Somchai@Example.com' }),
      { token: user.token },
    );
    expect(res).toEqual({
      ret: 1,
      msg: 'Success',
      data: {
        id: expect.any(Number),
        real_name: 'Somchai Jaidee',
        ifsc: 'KASI0001234',
        bank_code: 'KBANK',
        bank_name: 'Kasikornbank',
        bank_number: '•••• 4801',
        // Kept as E.164, as every phone number is.
        phone: '+66812345678',
        email: 'somchai@example.com',
        // None given.
        label: '',
        created_at: h.clock.now().toISOString(),
        // The harness runs without a cooling-off period (payee-cooling.test.ts has it).
        usable_at: h.clock.now().toISOString(),
        cooling_seconds: 0,
      },
    });
    const list = await h.call(bankCards, {}, { token: user.token });
    expect(list.data).toEqual({ lists: [res.data], page: 1, total: 1 });
    for (const answer of [res, list]) expect(JSON.stringify(answer)).not.toMatch(/9073|31526/);
  });

  it('refuses a missing or blank field with the fill-in-the-information text, the e-mail included', async () => {
    const user = await customer(h);
    for (const field of ['real_name', 'ifsc', 'bank_number', 'phone', 'email'] as const) {
      const blank = await h.call(addBankCard, cardForm({ [field]: '  ' }), { token: user.token });
      expect(blank, field).toEqual(refused('Please fill in the information and try again!'));
      const { [field]: _left, ...without } = cardForm();
      expect(await h.call(addBankCard, without, { token: user.token }), field).toEqual(
        refused('Please fill in the information and try again!'),
      );
    }
    const { bank_code: _code, ...noBank } = cardForm();
    expect(await h.call(addBankCard, noBank, { token: user.token })).toEqual(refused('Please choose a bank!'));
    expect(await cardsOf(user.id)).toEqual([]);
  });

  it('refuses a malformed IFSC code, account number, phone or e-mail with its own text', async () => {
    const user = await customer(h);
    const cases: [Record<string, string>, string][] = [
      [{ ifsc: 'KAS' }, 'Please enter a valid IFSC code!'],
      [{ ifsc: 'KASI-000123' }, 'Please enter a valid IFSC code!'],
      [{ ifsc: 'K'.repeat(21) }, 'Please enter a valid IFSC code!'],
      // Upper-cased, these would be another code than the one typed ('KASSITHBK', 'FINANCE1').
      [{ ifsc: 'kaßithbk' }, 'Please enter a valid IFSC code!'],
      [{ ifsc: 'ﬁnance1' }, 'Please enter a valid IFSC code!'],
      [{ bank_number: '12345' }, 'Please enter a valid bank account number!'],
      [{ bank_number: '1234.5678.90' }, 'Please enter a valid bank account number!'],
      [{ bank_number: '1234 5678 9O' }, 'Please enter a valid bank account number!'],
      [{ bank_number: '1'.repeat(21) }, 'Please enter a valid bank account number!'],
      [{ phone: '08-1234' }, 'Please enter a valid mobile number!'],
      [{ phone: '123456' }, 'Please enter a valid mobile number!'],
      // A fixed line (Bangkok) receives no text message: no mobile number.
      [{ phone: '021234567' }, 'Please enter a valid mobile number!'],
      [{ email: 'so\u200Bm@example.com' }, 'Please remove invisible or direction-changing characters!'],
      [{ email: 'somchai.example.com' }, 'Please enter a valid e-mail address!'],
    ];
    for (const [fields, text] of cases)
      expect(await h.call(addBankCard, cardForm(fields), { token: user.token }), JSON.stringify(fields)).toEqual(
        refused(text),
      );
    expect(await cardsOf(user.id)).toEqual([]);
  });

  it('reads the holder’s mobile number as every phone field does, in any of the six languages’ digits', async () => {
    for (const phone of ['+66 81 234 5678', '081-234-5678', '๐๘๑๒๓๔๕๖๗๘', '０８１２３４５６７８']) {
      const user = await customer(h);
      expect((await addCard(h, user.token, { phone })).phone, phone).toBe('+66812345678');
    }
  });

  it('reads an account number as written: grouped by spaces or dashes, in any of the six languages’ digits', async () => {
    const user = await customer(h);
    const digits = newBankNumber();
    /** `digits` in the system whose zero is `zero`. */
    const inSystem = (zero: number) => [...digits].map((d) => String.fromCodePoint(zero + Number(d))).join('');
    const grouped = digits.replace(/(\d{4})(?=\d)/g, '$1 ');
    const card = await addCard(h, user.token, { bank_number: grouped });
    expect(card.bank_number).toBe(`•••• ${digits.slice(-4)}`);
    expect((await cardsOf(user.id)).map((row) => row.bankNumber)).toEqual([digits]);
    // Each of these is the same account: one number, so the second adding of it is refused.
    const written = [
      digits.replace(/(\d{4})(?=\d)/g, '$1-'),
      inSystem(0x0e50), // Thai
      inSystem(0x0660), // Arabic-Indic
      inSystem(0x0966), // Devanagari
      inSystem(0xff10), // full-width
      `\u00a0${grouped}\u3000`,
    ];
    for (const bank_number of written)
      expect(await h.call(addBankCard, cardForm({ bank_number }), { token: user.token }), bank_number).toEqual(
        refused('This bank account has already been added!'),
      );
    expect((await cardsOf(user.id)).map((row) => row.bankNumber)).toEqual([digits]);
  });

  it(`takes each of the ${BANK_CODES.length} Thai bank codes and nothing else`, async () => {
    for (const code of ['HSBC', 'kbank', 'KBANK ', 'BANK']) {
      const user = await customer(h);
      expect(await h.call(addBankCard, cardForm({ bank_code: code }), { token: user.token }), code).toEqual(
        refused('Please choose a bank!'),
      );
    }
    const names: string[] = [];
    for (let start = 0; start < BANK_CODES.length; start += MAX_BANK_CARDS) {
      const user = await customer(h);
      for (const code of BANK_CODES.slice(start, start + MAX_BANK_CARDS))
        names.push((await addCard(h, user.token, { bank_code: code })).bank_name);
    }
    expect(names).toEqual(BANK_CODES.map((code) => BANK_NAMES[code]));
  });

  it('refuses the same account at the same bank twice, nothing written; another bank or another customer may', async () => {
    const user = await customer(h);
    const number = newBankNumber();
    await addCard(h, user.token, { bank_number: number });
    const before = await cardsOf(user.id);
    for (const lang of ['en', 'th'] as const)
      expect(await h.call(addBankCard, cardForm({ bank_number: number }), { token: user.token, lang })).toEqual(
        refused(lang === 'en' ? 'This bank account has already been added!' : 'บัญชีธนาคารนี้ถูกเพิ่มไว้แล้ว'),
      );
    expect(await cardsOf(user.id)).toEqual(before);
    expect((await addCard(h, user.token, { bank_number: number, bank_code: 'SCB' })).bank_name).toBe(BANK_NAMES.SCB);
    await addCard(h, (await customer(h)).token, { bank_number: number });
  });

  it(`binds at most ${MAX_BANK_CARDS} cards; deleting one makes room`, async () => {
    const user = await customer(h);
    const cards = [];
    for (let n = 0; n < MAX_BANK_CARDS; n++) cards.push(await addCard(h, user.token));
    expect(await h.call(addBankCard, cardForm(), { token: user.token })).toEqual(
      refused('You can bind at most 5 bank cards!'),
    );
    expect(await cardsOf(user.id)).toHaveLength(MAX_BANK_CARDS);

    expect(await h.call(deleteBankCard, { id: String(cards[2]!.id) }, { token: user.token })).toEqual({
      ret: 1,
      msg: 'Success',
      data: null,
    });
    expect((await h.call(bankCards, {}, { token: user.token })).data.lists.map((card) => card.id)).toEqual([
      cards[0]!.id,
      cards[1]!.id,
      cards[3]!.id,
      cards[4]!.id,
    ]);
    expect(await h.call(deleteBankCard, { id: String(cards[2]!.id) }, { token: user.token })).toEqual(
      refused('The bank card or wallet does not exist!'),
    );
    expect((await h.call(addBankCard, cardForm(), { token: user.token })).ret).toBe(1);
  });
});

describe('wallets', () => {
  it("adds an address valid by its chain's standard: TRON and Bitcoin base58check, EIP-55, bech32", async () => {
    const user = await customer(h);
    // EIP-55's examples, typed in lower and in upper case: stored and answered checksummed.
    const evm = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
    const accepted = [
      { currency: 'USDT', chain: 'TRC20', address: newTronAddress() },
      { currency: 'USDT', chain: 'ERC20', address: evm.toLowerCase() },
      // The same address on another chain is another wallet.
      { currency: 'USDT', chain: 'BEP20', address: evm },
      { currency: 'ETH', chain: 'ERC20', address: '0xFB6916095CA1DF60BB79CE92CE3EA74C37C5D359' },
      { currency: 'BTC', chain: 'BTC', address: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT' },
      { currency: 'BTC', chain: 'BTC', address: 'BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ' },
    ];
    const stored = accepted.map((wallet, index) => ({
      ...wallet,
      address: [
        wallet.address,
        evm,
        evm,
        '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
        wallet.address,
        'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      ][index]!,
    }));
    for (const [index, wallet] of accepted.entries()) {
      const res = await h.call(
        addWallet,
        { alias: `${wallet.currency} ${wallet.chain}`, ...wallet },
        { token: user.token },
      );
      expect(res, JSON.stringify(wallet)).toEqual({
        ret: 1,
        msg: 'Success',
        data: {
          id: expect.any(Number),
          alias: `${wallet.currency} ${wallet.chain}`,
          ...stored[index],
          created_at: h.clock.now().toISOString(),
          usable_at: h.clock.now().toISOString(),
          cooling_seconds: 0,
        },
      });
    }
    expect(
      (await h.call(wallets, {}, { token: user.token })).data.lists.map(({ currency, chain, address }) => ({
        currency,
        chain,
        address,
      })),
    ).toEqual(stored);
    expect((await walletsOf(user.id)).map((row) => row.address)).toEqual(stored.map((wallet) => wallet.address));
    // The same EVM address in another case is the same wallet.
    expect(
      await h.call(
        addWallet,
        { alias: 'again', currency: 'USDT', chain: 'ERC20', address: evm.toUpperCase().replace('0X', '0x') },
        { token: user.token },
      ),
    ).toEqual(refused('This address has already been added!'));
  });

  it('refuses an address of another chain or malformed, a chain the currency does not travel on, and a missing field', async () => {
    const user = await customer(h);
    const address = 'The address does not match the chosen chain!';
    const invalid = 'This is not a valid address on the chosen chain. Please check it and try again!';
    const checksum =
      'The address has a mistyped or missing character (its checksum does not match). Please copy it again!';
    const chain = 'Please choose a currency and chain!';
    const zero =
      'This is a zero address: nobody holds its key and anything sent to it is lost. Please use your own address!';
    const cases: [Record<string, string>, string][] = [
      [{ currency: 'USDT', chain: 'TRC20', address: newEvmAddress() }, address],
      [{ currency: 'USDT', chain: 'TRC20', address: `T${'0'.repeat(33)}` }, invalid],
      [{ currency: 'USDT', chain: 'TRC20', address: newTronAddress().slice(0, 33) }, checksum],
      [{ currency: 'USDT', chain: 'ERC20', address: newTronAddress() }, address],
      [{ currency: 'USDT', chain: 'BEP20', address: newEvmAddress().slice(0, 41) }, invalid],
      [{ currency: 'USDT', chain: 'ERC20', address: `0x${'g'.repeat(40)}` }, invalid],
      [{ currency: 'BTC', chain: 'BTC', address: newEvmAddress() }, address],
      [{ currency: 'USDT', chain: 'BTC', address: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT' }, chain],
      [{ currency: 'BTC', chain: 'TRC20', address: newTronAddress() }, chain],
      [{ currency: 'ETH', chain: 'BEP20', address: newEvmAddress() }, chain],
      [{ currency: 'DOGE', chain: 'TRC20', address: newTronAddress() }, chain],
      [{ currency: 'USDT', chain: 'SOL', address: newTronAddress() }, chain],
      [
        { alias: '', currency: 'USDT', chain: 'TRC20', address: newTronAddress() },
        'Please fill in the information and try again!',
      ],
      [{ currency: 'USDT', chain: 'TRC20', address: ' ' }, 'Please fill in the information and try again!'],
      // Valid by their standards, but nobody holds their keys: what is sent there is lost.
      [{ currency: 'ETH', chain: 'ERC20', address: `0x${'0'.repeat(40)}` }, zero],
      [{ currency: 'USDT', chain: 'TRC20', address: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb' }, zero],
    ];
    for (const [fields, text] of cases)
      expect(
        await h.call(addWallet, { alias: 'Mine', ...fields }, { token: user.token }),
        JSON.stringify(fields),
      ).toEqual(refused(text));
    expect(await walletsOf(user.id)).toEqual([]);
  });

  it('refuses an address already added for the same currency and chain; another user may add it', async () => {
    const user = await customer(h);
    const wallet = await addTronWallet(h, user.token);
    expect(
      await h.call(
        addWallet,
        { alias: 'Again', currency: 'USDT', chain: 'TRC20', address: wallet.address },
        { token: user.token },
      ),
    ).toEqual(refused('This address has already been added!'));
    expect(await walletsOf(user.id)).toHaveLength(1);
    const other = await customer(h);
    expect((await addTronWallet(h, other.token, { address: wallet.address })).address).toBe(wallet.address);
  });

  // A payout to one of them leaves the platform's wallet for its own: the customer is charged and receives nothing.
  it('refuses a deposit address of the platform, on its chain or another EVM chain, in any case', async () => {
    const user = await customer(h);
    // The customer's own deposit addresses (under the channels' keys), as their recharge page shows them.
    const channels = (await h.call(rechargeChannels, {}, { token: user.token })).data.lists;
    const addressOf = (chain: string) => channels.find((channel) => channel.chain === chain)!.address!;
    // The channels' one shared addresses, and one another customer was given for a recharge.
    const shared = new Map((await h.database.db.select().from(channelRows)).map((row) => [row.chain, row.address]));
    const other = await customer(h);
    const theirs = await cryptoRecharge(h, other.token, '30', '2');
    const ours = 'This is a deposit address of the platform: a withdrawal must go to a wallet of your own!';
    for (const wallet of [
      { currency: 'USDT', chain: 'TRC20', address: addressOf('TRC20') },
      { currency: 'USDT', chain: 'ERC20', address: addressOf('ERC20').toLowerCase() },
      // One EVM key is one address on every EVM chain.
      { currency: 'ETH', chain: 'ERC20', address: addressOf('BEP20') },
      { currency: 'USDT', chain: 'BEP20', address: addressOf('ERC20') },
      { currency: 'USDT', chain: 'TRC20', address: shared.get('TRC20')! },
      { currency: 'USDT', chain: 'BEP20', address: shared.get('ERC20')! },
      { currency: 'USDT', chain: 'ERC20', address: theirs.address },
    ])
      expect(await h.call(addWallet, { alias: 'Deposit', ...wallet }, { token: user.token }), wallet.address).toEqual(
        refused(ours),
      );
    expect(await walletsOf(user.id)).toEqual([]);
  });

  it(`keeps at most ${MAX_WALLETS} wallets; a deleted one is gone and cannot be deleted twice`, async () => {
    const user = await customer(h);
    const added = [];
    for (let n = 0; n < MAX_WALLETS; n++) added.push(await addTronWallet(h, user.token));
    expect(
      await h.call(
        addWallet,
        { alias: 'One more', currency: 'USDT', chain: 'TRC20', address: newTronAddress() },
        { token: user.token },
      ),
    ).toEqual(refused('You can add at most 10 wallets!'));
    expect(await h.call(deleteWallet, { id: String(added[0]!.id) }, { token: user.token })).toEqual({
      ret: 1,
      msg: 'Success',
      data: null,
    });
    expect((await h.call(wallets, {}, { token: user.token })).data.lists.map((wallet) => wallet.id)).toEqual(
      added.slice(1).map((wallet) => wallet.id),
    );
    expect(await h.call(deleteWallet, { id: String(added[0]!.id) }, { token: user.token })).toEqual(
      refused('The bank card or wallet does not exist!'),
    );
    expect(await h.call(deleteWallet, { id: 'abc' }, { token: user.token })).toEqual(
      refused('The bank card or wallet does not exist!'),
    );
    expect((await addTronWallet(h, user.token)).alias).toBe('My TRON');
  });
});
