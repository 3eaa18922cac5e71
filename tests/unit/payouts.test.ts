// @vitest-environment jsdom
// Payout accounts and certification: the checks before a bank card or wallet is sent
// (the spec's texts), adding and deleting, where adding returns to, and the certification rules —
// advanced waits for a verified primary.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BankCardInput, type BankCard, type Wallet } from '../../src/api-contract/payouts.ts';
import * as v from 'valibot';
import type { CertificationRecord, CertificationState } from '../../src/api-contract/certification.ts';
import type { UserInfo } from '../../src/api-contract/account.ts';
import { ROUTES } from '../../src/api-contract/routes.ts';
import { navigationHistory } from '../../src/lib/navigation.ts';
import { session } from '../../src/lib/session.ts';
import { toasts } from '../../src/lib/toast.ts';
import {
  addCard,
  bankCardProblem,
  deleteCard,
  emptyBankCardForm,
  loadBankCards,
  loadWallets,
  payoutsState,
  removeWallet,
  returnRouteAfterAdding,
  returnTo,
  withFrom,
  type BankCardForm,
} from '../../src/features/payouts/payouts-store.ts';
import { saveWallet, walletProblem, type WalletForm } from '../../src/features/payouts/add-wallet-store.ts';
import { copyText } from '../../src/lib/clipboard.ts';
import { middleEllipsis } from '../../src/lib/format.ts';
import {
  advancedBlocked,
  canSubmit,
  certification,
  certificationProblem,
  loadCertification,
  submitLevel,
  type PrimaryForm,
} from '../../src/features/certification/certification-store.ts';
import { certificationSummary } from '../../src/features/profile/profile-store.ts';
import { i18n } from '@lingui/core';
import { envelope, httpError, resetClientState, stubFetch } from './helpers.ts';

const FILL = 'Please fill in the information and try again!';
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const form = (body: string) => Object.fromEntries(new URLSearchParams(body));
const pathOf = (request: Request) => new URL(request.url).pathname;

const goodCard: BankCardForm = {
  real_name: 'Somchai Jaidee',
  ifsc: 'kbank0001',
  bank_code: 'KBANK',
  bank_number: '1234567890',
  phone: '0812345678',
  email: 'Somchai@Example.com',
};
const card = (id: number, number = '•••• 7890'): BankCard => ({
  id,
  label: '',
  real_name: 'Somchai Jaidee',
  ifsc: 'KBANK0001',
  bank_code: 'KBANK',
  bank_name: 'Kasikornbank',
  bank_number: number,
  phone: '0812345678',
  email: 'somchai@example.com',
  created_at: '2026-01-02T03:04:05.000Z',
  usable_at: '2026-01-03T03:04:05.000Z',
  cooling_seconds: 0,
});
const TRON = 'TBhCfAytTEh52WFL6HYr64i2nmc3u3TCUp';
const EVM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const goodWallet: WalletForm = { alias: 'My exchange', currency: 'USDT', chain: 'TRC20', address: TRON };
const wallet = (id: number, address = TRON): Wallet => ({
  id,
  alias: `Wallet ${id}`,
  currency: 'USDT',
  chain: 'TRC20',
  address,
  created_at: '2026-01-02T03:04:05.000Z',
  usable_at: '2026-01-03T03:04:05.000Z',
  cooling_seconds: 0,
});

beforeEach(async () => {
  resetClientState();
  navigationHistory.entries = [];
  session.token = 'token-a';
  await settle();
});
afterEach(resetClientState);

describe('bank card checks', () => {
  it('asks for every field, the e-mail included', () => {
    for (const field of ['real_name', 'ifsc', 'bank_number', 'phone', 'email'] as const) {
      expect(bankCardProblem({ ...goodCard, [field]: '  ' }, 0), field).toBe(FILL);
    }
    expect(bankCardProblem(emptyBankCardForm(), 0)).toBe(FILL);
    expect(bankCardProblem({ ...goodCard, bank_code: '' }, 0)).toBe('Please choose a bank!');
  });

  it('names a bad IFSC code, account number, phone or e-mail', () => {
    expect(bankCardProblem({ ...goodCard, ifsc: 'AB' }, 0)).toBe('Please enter a valid IFSC code!');
    expect(bankCardProblem({ ...goodCard, ifsc: 'KBANK-0001' }, 0)).toBe('Please enter a valid IFSC code!');
    expect(bankCardProblem({ ...goodCard, bank_number: '12345' }, 0)).toBe('Please enter a valid bank account number!');
    expect(bankCardProblem({ ...goodCard, bank_number: '12345abc90' }, 0)).toBe(
      'Please enter a valid bank account number!',
    );
    expect(bankCardProblem({ ...goodCard, phone: '08-1234' }, 0)).toBe('Please enter a valid mobile number!');
    expect(bankCardProblem({ ...goodCard, email: 'somchai.example.com' }, 0)).toBe(
      'Please enter a valid e-mail address!',
    );
  });

  it('reads an IFSC code typed in full-width letters, another script’s digits or with spaces as the code meant', () => {
    for (const ifsc of ['ＫＢＡＮＫ０００１', 'KBANK๐๐๐๑', 'kbank ०००१', 'ＫＢＡＮＫ ٠٠٠١'])
      expect(v.parse(BankCardInput, { ...goodCard, ifsc }).ifsc, ifsc).toBe('KBANK0001');
    expect(bankCardProblem({ ...goodCard, ifsc: 'ＫＢＡＮＫ０００１' }, 0)).toBeNull();
    // Still letters and digits only: a sharp s or a ligature is not an IFSC letter, whatever case mapping makes of it.
    expect(bankCardProblem({ ...goodCard, ifsc: 'KBAßK0001' }, 0)).toBe('Please enter a valid IFSC code!');
    expect(bankCardProblem({ ...goodCard, ifsc: 'ﬁnance1' }, 0)).toBe('Please enter a valid IFSC code!');
  });

  it('lets a complete card through, and refuses a sixth', () => {
    expect(bankCardProblem(goodCard, 0)).toBeNull();
    expect(bankCardProblem(goodCard, 4)).toBeNull();
    expect(bankCardProblem(goodCard, 5)).toBe('You can bind at most 5 bank cards!');
  });
});

describe('bank cards', () => {
  it('loads the list, and keeps what a failed load said', async () => {
    stubFetch(envelope(1, 'ok', { lists: [card(1)], page: 1, total: 1 }));
    await loadBankCards();
    expect(payoutsState.cards).toMatchObject({ lists: [card(1)], loaded: true, failure: null });

    stubFetch(httpError(404));
    await expect(loadBankCards()).rejects.toThrow();
    expect(payoutsState.cards.failure).toBe('The requested resource was not found');
    expect(payoutsState.cards.lists).toEqual([card(1)]);
  });

  it('sends the card as the API contract parses it and adds the answer to the list', async () => {
    payoutsState.cards = { lists: [card(1)], loaded: true, failure: null, usableBy: {} };
    const { calls } = stubFetch(envelope(1, 'ok', card(2)));
    await addCard(goodCard);
    expect(calls[0]!.request.method).toBe('POST');
    expect(pathOf(calls[0]!.request)).toBe('/api/users/bank/add');
    expect(calls[0]!.request.headers.get('idempotency-key')).toBeTruthy();
    // No label typed: sent empty (the card has none).
    expect(form(calls[0]!.body)).toEqual({ ...goodCard, ifsc: 'KBANK0001', email: 'somchai@example.com', label: '' });
    expect(payoutsState.cards.lists.map((item) => item.id)).toEqual([1, 2]);
  });

  it('counts a new card cooling-off down from when its answer arrived, on the clock of this device', async () => {
    payoutsState.cards = { lists: [], loaded: true, failure: null, usableBy: {} };
    stubFetch(envelope(1, 'ok', { ...card(4), cooling_seconds: 24 * 3600 }));
    const before = Date.now();
    await addCard(goodCard);
    const usableBy = payoutsState.cards.usableBy[4]!;
    expect(usableBy).toBeGreaterThanOrEqual(before + 24 * 3_600_000);
    expect(usableBy).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000);
  });

  it('deletes a card on the server (a GET, sent as a write) and from the list', async () => {
    payoutsState.cards = { lists: [card(1), card(2), card(3)], loaded: true, failure: null, usableBy: {} };
    const { calls } = stubFetch(envelope(1, 'ok', null));
    await deleteCard(2);
    expect(calls[0]!.request.method).toBe('GET');
    expect(new URL(calls[0]!.request.url).searchParams.get('id')).toBe('2');
    expect(calls[0]!.request.headers.get('idempotency-key')).toBeTruthy();
    expect(payoutsState.cards.lists.map((item) => item.id)).toEqual([1, 3]);
  });

  it('keeps the card listed when the server refuses the deletion', async () => {
    payoutsState.cards = { lists: [card(1)], loaded: true, failure: null, usableBy: {} };
    stubFetch(envelope(0, 'The bank card or wallet does not exist!'));
    await expect(deleteCard(1)).rejects.toThrow('The bank card or wallet does not exist!');
    expect(payoutsState.cards.lists).toHaveLength(1);
  });
});

describe('wallet checks', () => {
  it('asks for an alias and an address', () => {
    expect(walletProblem({ ...goodWallet, alias: ' ' }, 0)).toBe(FILL);
    // Too long is the label's rule, on the device as on the server.
    expect(walletProblem({ ...goodWallet, alias: 'x'.repeat(31) }, 0)).toBe(
      'A label is at most 30 characters, without < > or control characters!',
    );
    expect(walletProblem({ ...goodWallet, address: '' }, 0)).toBe(FILL);
  });

  it('refuses a chain the currency does not travel on', () => {
    expect(walletProblem({ ...goodWallet, currency: 'BTC', chain: 'TRC20' }, 0)).toBe(
      'Please choose a currency and chain!',
    );
    expect(walletProblem({ ...goodWallet, currency: 'ETH', chain: 'BEP20', address: EVM }, 0)).toBe(
      'Please choose a currency and chain!',
    );
  });

  it("refuses an address by its chain's standard, each reason with its own text", () => {
    const otherChain = 'The address does not match the chosen chain!';
    expect(walletProblem({ ...goodWallet, chain: 'TRC20', address: EVM }, 0)).toBe(otherChain);
    expect(walletProblem({ ...goodWallet, chain: 'ERC20', address: TRON }, 0)).toBe(otherChain);
    expect(walletProblem({ alias: 'Cold', currency: 'BTC', chain: 'BTC', address: EVM }, 0)).toBe(otherChain);
    expect(walletProblem({ ...goodWallet, chain: 'ERC20', address: `${EVM}0` }, 0)).toBe(
      'This is not a valid address on the chosen chain. Please check it and try again!',
    );
    expect(walletProblem({ ...goodWallet, chain: 'ERC20', address: EVM.replace('aAeb', 'aaeb') }, 0)).toBe(
      'The address has a mistyped or missing character (its checksum does not match). Please copy it again!',
    );
    expect(walletProblem({ ...goodWallet, address: `${TRON.slice(0, 5)}\u200b${TRON.slice(5)}` }, 0)).toBe(
      'The address contains a space or an invisible character. Please paste or type it again!',
    );
    expect(
      walletProblem({ alias: 'Test', currency: 'BTC', chain: 'BTC', address: 'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn' }, 0),
    ).toBe('This address is for another network, such as a test network. Please use a main-network address!');
    // USDT's own contract, pasted as if it were a wallet.
    expect(walletProblem({ ...goodWallet, address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' }, 0)).toBe(
      "This is a token's contract address, not a wallet: anything sent to it is lost. Please use your own wallet's receiving address!",
    );
    // Segwit version 2 (BIP-350's own vector): valid, but no wallet can spend from it yet.
    expect(
      walletProblem(
        { alias: 'New', currency: 'BTC', chain: 'BTC', address: 'bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs' },
        0,
      ),
    ).toBe(
      'No wallet can spend from this kind of Bitcoin address yet (segwit version 2 or later): anything sent to it ' +
        'would be lost. Please use an address starting with bc1q, bc1p, 1 or 3!',
    );
  });

  it('lets a matching wallet through, and refuses an eleventh', () => {
    expect(walletProblem(goodWallet, 0)).toBeNull();
    expect(walletProblem({ ...goodWallet, chain: 'BEP20', address: EVM }, 0)).toBeNull();
    expect(walletProblem({ alias: 'ETH', currency: 'ETH', chain: 'ERC20', address: EVM }, 0)).toBeNull();
    expect(
      walletProblem(
        { alias: 'Cold', currency: 'BTC', chain: 'BTC', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
        0,
      ),
    ).toBeNull();
    expect(
      walletProblem({ alias: 'Old', currency: 'BTC', chain: 'BTC', address: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT' }, 0),
    ).toBeNull();
    expect(walletProblem(goodWallet, 10)).toBe('You can add at most 10 wallets!');
  });
});

describe('wallets', () => {
  it('adds the new wallet at the top and deletes one from the list', async () => {
    stubFetch(envelope(1, 'ok', { lists: [wallet(1), wallet(2)], page: 1, total: 2 }));
    await loadWallets();
    const { calls } = stubFetch(envelope(1, 'ok', wallet(3)));
    await saveWallet({ ...goodWallet, alias: '  My exchange ' });
    expect(pathOf(calls[0]!.request)).toBe('/api/users/wallet/add');
    expect(form(calls[0]!.body)).toEqual({ ...goodWallet, alias: 'My exchange' });
    expect(payoutsState.wallets.lists.map((item) => item.id)).toEqual([3, 1, 2]);

    const removal = stubFetch(envelope(1, 'ok', null));
    await removeWallet(1);
    expect(removal.calls[0]!.request.method).toBe('POST');
    expect(form(removal.calls[0]!.body)).toEqual({ id: '1' });
    expect(payoutsState.wallets.lists.map((item) => item.id)).toEqual([3, 2]);
  });

  it('forgets the lists when the session changes', async () => {
    payoutsState.wallets = { lists: [wallet(1)], loaded: true, failure: null, usableBy: {} };
    payoutsState.cards = { lists: [card(1)], loaded: true, failure: null, usableBy: {} };
    session.token = 'token-b';
    await settle();
    expect(payoutsState.wallets).toEqual({ lists: [], loaded: false, failure: null, usableBy: {} });
    expect(payoutsState.cards).toEqual({ lists: [], loaded: false, failure: null, usableBy: {} });
  });

  it('shows both ends of a long address', () => {
    expect(middleEllipsis(TRON)).toBe('TBhCfAyt…c3u3TCUp');
    expect(middleEllipsis(EVM, 6, 4)).toBe('0x5aAe…eAed');
    expect(middleEllipsis('short')).toBe('short');
  });

  it('says whether copying worked', async () => {
    const written: string[] = [];
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: async (text: string) => void written.push(text) },
    });
    await copyText(TRON);
    expect(written).toEqual([TRON]);
    expect(toasts.current?.text).toBe('Copied successfully!');
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: () => Promise.reject(new Error('denied')) },
    });
    await copyText(TRON);
    expect(toasts.current?.text).toBe('Copy failed, please try again later!');
  });
});

describe('where adding returns to', () => {
  it('follows `from` (our pages only), else the withdraw page just before', () => {
    expect(returnRouteAfterAdding(`from=${encodeURIComponent(ROUTES.withdraw)}`, [])).toBe(ROUTES.withdraw);
    expect(returnRouteAfterAdding('from=https://evil.example', [ROUTES.mine, ROUTES.bankCard])).toBeNull();
    expect(returnRouteAfterAdding(`from=${encodeURIComponent(ROUTES.login)}`, [])).toBeNull();
    expect(returnRouteAfterAdding('', [ROUTES.home, `${ROUTES.withdraw}?tab=bank`, ROUTES.bankCard])).toBe(
      `${ROUTES.withdraw}?tab=bank`,
    );
    expect(returnRouteAfterAdding('', [ROUTES.mine, ROUTES.bankCard])).toBeNull();
    expect(returnRouteAfterAdding('', [ROUTES.withdraw, ROUTES.mine, ROUTES.bankCard])).toBeNull();
  });

  it('leaves the add page out of the history', () => {
    navigationHistory.entries = [ROUTES.home, ROUTES.withdraw, ROUTES.walletList, ROUTES.addWallet];
    returnTo(ROUTES.withdraw);
    expect(navigationHistory.entries).toEqual([ROUTES.home, ROUTES.withdraw, ROUTES.walletList]);
    expect(location.hash).toBe(`#${ROUTES.withdraw}`);

    navigationHistory.entries = [ROUTES.home, ROUTES.withdraw, ROUTES.bankCard];
    returnTo(ROUTES.withdraw);
    expect(navigationHistory.entries).toEqual([ROUTES.home]);
    expect(location.hash).toBe(`#${ROUTES.withdraw}`);
  });

  it('hands `from` on from the list to the add page', () => {
    expect(withFrom(ROUTES.addWallet, `from=${encodeURIComponent(ROUTES.withdraw)}`)).toBe(
      `${ROUTES.addWallet}?from=${encodeURIComponent(ROUTES.withdraw)}`,
    );
    expect(withFrom(ROUTES.addWallet, '')).toBe(ROUTES.addWallet);
  });
});

const record = (
  level: CertificationRecord['level'],
  status: CertificationRecord['status'],
  extra: Partial<CertificationRecord> = {},
): CertificationRecord => ({
  level,
  status,
  doc_type: null,
  name: '',
  number: '',
  reason: '',
  submitted_at: null,
  reviewed_at: null,
  ...extra,
});
const stateOf = (
  primary: CertificationRecord['status'],
  advanced: CertificationRecord['status'] = 'none',
): CertificationState => ({
  primary: record('primary', primary),
  advanced: record('advanced', advanced),
});
const PHOTO = '/api/uploads/abcdefghijklmnop';
const primaryForm: PrimaryForm = { doc_type: 'passport', name: 'Somchai Jaidee', number: 'AA1234567', image: PHOTO };

describe('certification', () => {
  it('blocks advanced until primary is verified, with the spec text', () => {
    for (const status of ['none', 'review', 'rejected'] as const) expect(advancedBlocked(stateOf(status))).toBe(true);
    expect(advancedBlocked(stateOf('verified'))).toBe(false);
    const advanced = { level: 'advanced' as const, form: { image_back: PHOTO, image_hold: PHOTO } };
    const text = 'Please complete the primary certification before proceeding to the advanced certification!';
    expect(certificationProblem(advanced, stateOf('review'))).toBe(text);
    expect(certificationProblem(advanced, null)).toBe(text);
    expect(certificationProblem(advanced, stateOf('verified'))).toBeNull();
    expect(
      certificationProblem({ ...advanced, form: { image_back: PHOTO, image_hold: '' } }, stateOf('verified')),
    ).toBe('Please upload a photo of the document!');
  });

  it('asks for every primary field', () => {
    const primary = (form: Partial<PrimaryForm>) =>
      certificationProblem({ level: 'primary', form: { ...primaryForm, ...form } }, null);
    expect(primary({})).toBeNull();
    expect(primary({ doc_type: '' })).toBe('Please choose the document type!');
    expect(primary({ name: '' })).toBe(FILL);
    expect(primary({ number: '' })).toBe(FILL);
    expect(primary({ number: 'A 1' })).toBe(FILL);
    expect(primary({ image: '' })).toBe('Please upload a photo of the document!');
    expect(primary({ image: 'https://elsewhere.example/x.jpg' })).toBe('Please upload a photo of the document!');
  });

  it('opens the form only when never sent or rejected', () => {
    expect(canSubmit({ status: 'none' })).toBe(true);
    expect(canSubmit({ status: 'rejected' })).toBe(true);
    expect(canSubmit({ status: 'review' })).toBe(false);
    expect(canSubmit({ status: 'verified' })).toBe(false);
  });

  it('submits primary, keeps the new state (under review) and refreshes the user', async () => {
    const reviewed: CertificationState = {
      primary: record('primary', 'review', {
        doc_type: 'passport',
        name: 'Somchai Jaidee',
        number: '*****4567',
        submitted_at: '2026-01-02T03:04:05.000Z',
      }),
      advanced: record('advanced', 'none'),
    };
    const user = { id: 1, username: 'demo', verification: 'review', advanced_verification: 'none' } as UserInfo;
    const { calls } = stubFetch(envelope(1, 'ok', reviewed), envelope(1, 'ok', user));
    await submitLevel({ level: 'primary', form: primaryForm });
    expect(pathOf(calls[0]!.request)).toBe('/api/users/levelauth');
    expect(form(calls[0]!.body)).toEqual({ ...primaryForm, level: 'primary' });
    expect(certification.state).toEqual(reviewed);
    expect(pathOf(calls[1]!.request)).toBe('/api/users/info');
    expect(session.user?.verification).toBe('review');
  });

  it('loads the state with a rejection reason, and forgets it on another session', async () => {
    const rejected = {
      ...stateOf('rejected'),
      primary: record('primary', 'rejected', { reason: 'The photo is blurred.' }),
    };
    stubFetch(envelope(1, 'ok', rejected));
    await loadCertification();
    expect(certification.state?.primary.reason).toBe('The photo is blurred.');
    session.token = 'token-b';
    await settle();
    expect(certification.state).toBeNull();
  });

  it('sums up both levels for the Mine page', () => {
    const summary = (verification: UserInfo['verification'], advanced: UserInfo['advanced_verification'] = 'none') =>
      i18n._(certificationSummary({ verification, advanced_verification: advanced }));
    expect(summary('none')).toBe('Not certified');
    expect(summary('review')).toBe('Under review');
    expect(summary('rejected')).toBe('Rejected');
    expect(summary('verified')).toBe('Primary verified');
    expect(summary('verified', 'review')).toBe('Advanced under review');
    expect(summary('verified', 'verified')).toBe('Advanced verified');
  });
});
