// @vitest-environment jsdom
// A customer's own text shown inside other text is isolated, so it cannot turn around what follows it:
// a payee label or wallet alias holding a right-to-left override (one saved before the rule refused it)
// sits in a <bdi> of its own, and so do the anti-phishing code of a notice, the nickname on Mine, a
// console fact and a chat line (dir="auto"). A notice's plain text carries FSI … PDI around the alias.
import { expect, it } from 'vitest';
import { antiPhishingLine } from '../../src/api-contract/anti-phishing-line.ts';
import type { BankCard } from '../../src/api-contract/payouts.ts';
import type { StationMessage } from '../../src/api-contract/messages.ts';
import { CardLabel, WalletLabel } from '../../src/features/funds/WithdrawParts.tsx';
import { MessageDialog } from '../../src/features/messages/MessageDialog.tsx';
import { Facts } from '../../src/console/parts.tsx';
import { mountPoint, savedWallet } from './helpers.ts';
import { renderInApp } from './render-in-app.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();
const OVERRIDE = 'Mom\u202Egnp.exe';

async function show(node: React.ReactNode) {
  await renderInApp(view, node);
}

/** The element holding exactly `text` as its own text. */
function holderOf(text: string): Element {
  const found = [...view.container.querySelectorAll('*')].filter((element) => element.textContent === text);
  expect(found.length, text).toBeGreaterThan(0);
  return found.at(-1)!;
}

const isolated = (element: Element) => element.tagName === 'BDI' || element.getAttribute('dir') === 'auto';

const wallet = savedWallet({ alias: OVERRIDE });
const card: BankCard = {
  id: 2,
  real_name: 'سمير\u202E',
  ifsc: 'KASI0001234',
  bank_code: 'KBANK',
  bank_name: 'Kasikornbank',
  bank_number: '•••• 7890',
  phone: '0812345678',
  email: 'a@example.com',
  label: OVERRIDE,
  created_at: '2026-11-27T00:00:00.000Z',
  usable_at: '2026-11-27T00:00:00.000Z',
  cooling_seconds: 0,
};

it('a wallet alias holding a right-to-left override is shown in a <bdi> of its own, before its chain', async () => {
  await show(<WalletLabel wallet={wallet} />);
  const alias = holderOf(OVERRIDE);
  expect(alias.tagName).toBe('BDI');
  expect(alias.contains(holderOf('USDT · TRC20'))).toBe(false);
});

it('a bank card label and holder are each isolated, the card number outside them', async () => {
  await show(<CardLabel card={card} />);
  expect(holderOf(OVERRIDE).tagName).toBe('BDI');
  expect(holderOf('سمير\u202E').tagName).toBe('BDI');
  expect(holderOf('•••• 7890').closest('bdi')).toBeNull();
});

it('a security notice shows the anti-phishing code in a <bdi>, and keeps the alias isolated in its text', async () => {
  const content = `${antiPhishingLine('Your anti-phishing code', 'صقر الصحراء ٧')}\n\u2068${OVERRIDE}\u2069 (USDT TRC20 …abc123) was added to your account.`;
  const message: StationMessage = {
    id: 1,
    title: 'New withdrawal address added',
    content,
    status: 'unread',
    created_at: '2026-11-27T00:00:00.000Z',
  };
  await show(<MessageDialog message={message} actions={null} />);
  const code = holderOf('صقر الصحراء ٧');
  expect(code.tagName).toBe('BDI');
  const text = view.container.querySelector('.msg-reader-content')!;
  expect(isolated(text)).toBe(true);
  expect(text.textContent).toContain(`\u2068${OVERRIDE}\u2069 (USDT TRC20 …abc123)`);
});

it('a console fact (a nickname) is isolated from the term beside it', async () => {
  await show(<Facts rows={[['Nickname', OVERRIDE]]} />);
  expect(isolated(holderOf(OVERRIDE))).toBe(true);
});
