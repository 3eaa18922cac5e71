// The data export's README in the customer's language (server/domain/data-export.ts writes it): what each file of the
// archive holds, that every time in it is in UTC, and what each column of each part means, so that a customer who
// opens a CSV file in a spreadsheet can read it. The column names stay the database's (the same in the JSON and CSV
// files, and what a program reading them expects); these texts describe them. Only the server reaches this module,
// so the app's catalogs never carry these texts.
import type { MessageDescriptor } from '@lingui/core';

/**
 * Every text of the README, by id: `x.readme.*` the general lines, `x.part.<part>` what a part holds, `x.col.<column>`
 * what a column means, and `x.col.<part>.<column>` where a part's column means more than the general text says.
 */
export const exportTexts = {
  'x.readme.title': /*i18n*/ { id: 'x.readme.title', message: "Your account's data, exported {0} (UTC)." },
  'x.readme.files': /*i18n*/ {
    id: 'x.readme.files',
    message:
      'Each part comes twice: NAME.json (exact values for programs: amounts as decimal strings) and NAME.csv (for a spreadsheet: UTF-8, every field quoted).',
  },
  'x.readme.times': /*i18n*/ {
    id: 'x.readme.times',
    message:
      'Every time in these files is in UTC (Coordinated Universal Time), not your local time: in the CSV files as YYYY-MM-DD HH:MM:SS, in the JSON files in ISO 8601 (ending in Z).',
  },
  'x.readme.amounts': /*i18n*/ {
    id: 'x.readme.amounts',
    message:
      'Amounts in the CSV files have "." as the decimal separator. A text starting with = + - or @ has an apostrophe put before it, so that no spreadsheet runs it as a formula.',
  },
  'x.readme.columns': /*i18n*/ {
    id: 'x.readme.columns',
    message:
      'The columns have the same names in both files (the first line of each CSV file). Each file and what its columns hold:',
  },
  'x.readme.documents': /*i18n*/ {
    id: 'x.readme.documents',
    message: 'documents/: the pictures sent with your identity certifications, named <certification id>-<side>.',
  },
  'x.readme.noDocuments': /*i18n*/ {
    id: 'x.readme.noDocuments',
    message: 'Document pictures are left out; ask for the export with them to have them too.',
  },
  'x.part.profile': /*i18n*/ {
    id: 'x.part.profile',
    message: 'your account: username, phone, e-mail, currency, invitation code, level, verification',
  },
  'x.part.ledger': /*i18n*/ {
    id: 'x.part.ledger',
    message: 'every movement of your balances, in the order it took effect (seq)',
  },
  'x.part.options': /*i18n*/ { id: 'x.part.options', message: 'your option orders' },
  'x.part.contracts': /*i18n*/ { id: 'x.part.contracts', message: 'your contract (spot) orders' },
  'x.part.recharges': /*i18n*/ { id: 'x.part.recharges', message: 'your recharges' },
  'x.part.withdrawals': /*i18n*/ { id: 'x.part.withdrawals', message: 'your withdrawals' },
  'x.part.liquidity': /*i18n*/ {
    id: 'x.part.liquidity',
    message: 'your liquidity mining subscriptions, redemptions and interest',
  },
  'x.part.lockups': /*i18n*/ { id: 'x.part.lockups', message: 'your lock-up mining orders' },
  'x.part.messages': /*i18n*/ {
    id: 'x.part.messages',
    message:
      'station messages to you and to everyone, with when you read them (in the language you exported in, English where a message has none in it), and your customer-service conversation',
  },
  'x.part.sessions': /*i18n*/ {
    id: 'x.part.sessions',
    message: 'your sign-ins (the address partly hidden, as on the Devices page)',
  },
  'x.part.certifications': /*i18n*/ { id: 'x.part.certifications', message: 'your identity certification submissions' },
  'x.part.balances': /*i18n*/ {
    id: 'x.part.balances',
    message:
      'your balances when this archive was made (practice money left out), and what closing the account then would end',
  },
  'x.part.practice_account': /*i18n*/ {
    id: 'x.part.practice_account',
    message: 'your practice account (virtual money to learn with)',
  },
  'x.part.practice_balances': /*i18n*/ {
    id: 'x.part.practice_balances',
    message: "your practice account's balances when this archive was made: virtual money, never withdrawn",
  },
  'x.part.account_freeze': /*i18n*/ {
    id: 'x.part.account_freeze',
    message: 'your own freeze of your account, if you ever froze it: since when, and an unfreezing you asked for',
  },
  'x.part.bank_cards': /*i18n*/ { id: 'x.part.bank_cards', message: 'the bank cards you saved for withdrawals' },
  'x.part.wallets': /*i18n*/ { id: 'x.part.wallets', message: 'the wallet addresses you saved for withdrawals' },
  'x.part.login_history': /*i18n*/ {
    id: 'x.part.login_history',
    message:
      'every sign-in to your account and every failed attempt against it still kept (the address partly hidden, as on the Sign-in history page)',
  },
  'x.part.check_ins': /*i18n*/ { id: 'x.part.check_ins', message: 'your daily check-ins and the points each one paid' },
  'x.part.box_draws': /*i18n*/ {
    id: 'x.part.box_draws',
    message: 'your blind box draws, with what each roll was mapped onto, so that any draw can be checked',
  },
  'x.part.welfare_claims': /*i18n*/ { id: 'x.part.welfare_claims', message: 'the reward tasks you claimed' },
  'x.part.price_alerts': /*i18n*/ { id: 'x.part.price_alerts', message: 'your price alerts and when each was met' },
  'x.part.push_subscriptions': /*i18n*/ {
    id: 'x.part.push_subscriptions',
    message:
      'the browsers you turned notifications on in: only the push service each is reached through (the rest of its address and its keys are left out)',
  },
  'x.part.notification_settings': /*i18n*/ {
    id: 'x.part.notification_settings',
    message: 'the kinds of notification you turned off',
  },
  'x.part.passkeys': /*i18n*/ {
    id: 'x.part.passkeys',
    message: 'the passkeys you can sign in with: their names and dates (the keys themselves stay on your devices)',
  },
  'x.part.box_seeds': /*i18n*/ {
    id: 'x.part.box_seeds',
    message:
      'your blind box seed pairs: the server seed once revealed (it proves the draws made with it), its digest before',
  },
  'x.part.invite_permission': /*i18n*/ {
    id: 'x.part.invite_permission',
    message: 'the invitation permission the platform granted you, if it did (a primary certification grants it too)',
  },
  'x.col.id': /*i18n*/ { id: 'x.col.id', message: "the record's number" },
  'x.col.username': /*i18n*/ { id: 'x.col.username', message: 'your username' },
  'x.col.phone': /*i18n*/ { id: 'x.col.phone', message: 'your mobile number' },
  'x.col.email': /*i18n*/ { id: 'x.col.email', message: 'your e-mail address' },
  'x.col.nickname': /*i18n*/ { id: 'x.col.nickname', message: 'your nickname' },
  'x.col.avatar': /*i18n*/ { id: 'x.col.avatar', message: 'the address of your profile picture' },
  'x.col.invite_code': /*i18n*/ { id: 'x.col.invite_code', message: 'your own invitation code' },
  'x.col.invited_by': /*i18n*/ {
    id: 'x.col.invited_by',
    message: 'the number of the customer who invited you (empty: nobody)',
  },
  'x.col.recharge_total': /*i18n*/ {
    id: 'x.col.recharge_total',
    message: 'everything you have recharged, in USDT (it sets your VIP level)',
  },
  'x.col.verification': /*i18n*/ {
    id: 'x.col.verification',
    message: 'the state of your primary identity certification',
  },
  'x.col.advanced_verification': /*i18n*/ {
    id: 'x.col.advanced_verification',
    message: 'the state of your advanced identity certification',
  },
  'x.col.session_idle_minutes': /*i18n*/ {
    id: 'x.col.session_idle_minutes',
    message: 'after how many minutes unused a sign-in ends (your setting)',
  },
  'x.col.created_at': /*i18n*/ { id: 'x.col.created_at', message: 'when it was made' },
  'x.col.asset': /*i18n*/ { id: 'x.col.asset', message: 'the asset (coin or currency)' },
  'x.col.bucket': /*i18n*/ {
    id: 'x.col.bucket',
    message: 'which part of the balance: available, or frozen (held for an order or a withdrawal)',
  },
  'x.col.amount': /*i18n*/ { id: 'x.col.amount', message: 'the amount' },
  'x.col.reference': /*i18n*/ {
    id: 'x.col.reference',
    message: 'the record the movement belongs to (an order, a recharge…)',
  },
  'x.col.seq': /*i18n*/ { id: 'x.col.seq', message: "the movement's place in the order your balances changed" },
  'x.col.coin': /*i18n*/ { id: 'x.col.coin', message: 'the coin traded' },
  'x.col.product_id': /*i18n*/ { id: 'x.col.product_id', message: 'the number of the product chosen' },
  'x.col.direction': /*i18n*/ { id: 'x.col.direction', message: 'up or down: which way you expected the price to go' },
  'x.col.minutes': /*i18n*/ { id: 'x.col.minutes', message: 'how long the option ran, in minutes' },
  'x.col.yield_rate': /*i18n*/ { id: 'x.col.yield_rate', message: 'the yield paid on a win (0.8 is 80 %)' },
  'x.col.start_price': /*i18n*/ { id: 'x.col.start_price', message: 'the recorded price at the start' },
  'x.col.start_price_at': /*i18n*/ { id: 'x.col.start_price_at', message: 'when the start price was recorded' },
  'x.col.start_constituents': /*i18n*/ {
    id: 'x.col.start_constituents',
    message: "the exchanges' prices the start price was made of",
  },
  'x.col.start_at': /*i18n*/ { id: 'x.col.start_at', message: 'when the option started' },
  'x.col.end_at': /*i18n*/ { id: 'x.col.end_at', message: 'when the option ended' },
  'x.col.status': /*i18n*/ { id: 'x.col.status', message: "the record's state" },
  'x.col.end_price': /*i18n*/ { id: 'x.col.end_price', message: 'the recorded price at the end' },
  'x.col.end_price_at': /*i18n*/ { id: 'x.col.end_price_at', message: 'when the end price was recorded' },
  'x.col.end_constituents': /*i18n*/ {
    id: 'x.col.end_constituents',
    message: "the exchanges' prices the end price was made of",
  },
  'x.col.outcome': /*i18n*/ { id: 'x.col.outcome', message: 'the result: win, loss, tie or void' },
  'x.col.payout': /*i18n*/ { id: 'x.col.payout', message: 'what was paid back to you, in USDT' },
  'x.col.profit': /*i18n*/ { id: 'x.col.profit', message: 'your profit or loss, in USDT' },
  'x.col.settled_at': /*i18n*/ { id: 'x.col.settled_at', message: 'when it was settled' },
  'x.col.practice': /*i18n*/ {
    id: 'x.col.practice',
    message: "true: traded with the practice account's virtual money",
  },
  'x.col.dust_conversion': /*i18n*/ {
    id: 'x.col.dust_conversion',
    message: 'true: a small balance you asked to convert to USDT, sold whole at the first price recorded after',
  },
  'x.col.side': /*i18n*/ { id: 'x.col.side', message: 'buy or sell' },
  'x.col.type': /*i18n*/ { id: 'x.col.type', message: 'the order type: limit, market, stop_market or stop_limit' },
  'x.col.price': /*i18n*/ { id: 'x.col.price', message: 'the price you set (empty for a market order)' },
  'x.col.quantity': /*i18n*/ { id: 'x.col.quantity', message: 'the quantity ordered' },
  'x.col.total_asked': /*i18n*/ {
    id: 'x.col.total_asked',
    message: 'the total you asked to spend, in the quote asset',
  },
  'x.col.fee_rate': /*i18n*/ { id: 'x.col.fee_rate', message: 'the fee rate (0.001 is 0.1 %)' },
  'x.col.frozen_asset': /*i18n*/ { id: 'x.col.frozen_asset', message: 'the asset held for the order' },
  'x.col.frozen': /*i18n*/ { id: 'x.col.frozen', message: 'how much of it was held' },
  'x.col.balances.available': /*i18n*/ {
    id: 'x.col.balances.available',
    message: 'what you could use: trade, withdraw or convert',
  },
  'x.col.balances.ends_with_closure': /*i18n*/ {
    id: 'x.col.balances.ends_with_closure',
    message:
      'what closing the account then would end with it, not paid out: an amount too small to withdraw or sell, or points too few to redeem (0: none)',
  },
  'x.col.eligible_after': /*i18n*/ {
    id: 'x.col.eligible_after',
    message: 'only prices recorded after this time could fill the order',
  },
  'x.col.unit_price': /*i18n*/ { id: 'x.col.unit_price', message: 'the price you got' },
  'x.col.dealt_quantity': /*i18n*/ { id: 'x.col.dealt_quantity', message: 'the quantity filled' },
  'x.col.total': /*i18n*/ { id: 'x.col.total', message: 'the total: quantity × price, or amount plus fee' },
  'x.col.fee': /*i18n*/ { id: 'x.col.fee', message: 'the fee charged' },
  'x.col.fee_asset': /*i18n*/ { id: 'x.col.fee_asset', message: 'the asset the fee was charged in' },
  'x.col.spent': /*i18n*/ { id: 'x.col.spent', message: 'what you paid' },
  'x.col.spent_asset': /*i18n*/ { id: 'x.col.spent_asset', message: 'the asset you paid in' },
  'x.col.received': /*i18n*/ { id: 'x.col.received', message: 'what you received' },
  'x.col.received_asset': /*i18n*/ { id: 'x.col.received_asset', message: 'the asset you received' },
  'x.col.tick_price': /*i18n*/ { id: 'x.col.tick_price', message: 'the recorded price that filled the order' },
  'x.col.tick_at': /*i18n*/ { id: 'x.col.tick_at', message: 'when that price was recorded' },
  'x.col.tick_constituents': /*i18n*/ {
    id: 'x.col.tick_constituents',
    message: "the exchanges' prices that price was made of",
  },
  'x.col.filled_at': /*i18n*/ { id: 'x.col.filled_at', message: 'when the order was filled' },
  'x.col.cancelled_at': /*i18n*/ { id: 'x.col.cancelled_at', message: 'when the order was cancelled' },
  'x.col.void_reason': /*i18n*/ {
    id: 'x.col.void_reason',
    message: 'why the order was void: no price in time (no_price), or the price moved past what was held (price_moved)',
  },
  'x.col.trigger_price': /*i18n*/ { id: 'x.col.trigger_price', message: 'the price that releases a conditional order' },
  'x.col.trigger_above': /*i18n*/ {
    id: 'x.col.trigger_above',
    message: 'true: released at or above the trigger price; false: at or below',
  },
  'x.col.triggered_at': /*i18n*/ { id: 'x.col.triggered_at', message: 'when the conditional order was released' },
  'x.col.trigger_tick_at': /*i18n*/ {
    id: 'x.col.trigger_tick_at',
    message: 'when the price that released it was recorded',
  },
  'x.col.trigger_tick_price': /*i18n*/ {
    id: 'x.col.trigger_tick_price',
    message: 'the recorded price that released it',
  },
  'x.col.expires_at': /*i18n*/ { id: 'x.col.expires_at', message: 'a conditional order not released by then expires' },
  'x.col.leg': /*i18n*/ { id: 'x.col.leg', message: 'take_profit or stop_loss: which leg of a pair' },
  'x.col.oco_group': /*i18n*/ {
    id: 'x.col.oco_group',
    message: 'both legs of one pair share this number: when one fills, the other is cancelled',
  },
  'x.col.parent_id': /*i18n*/ { id: 'x.col.parent_id', message: 'the order this leg waits for' },
  'x.col.order_no': /*i18n*/ { id: 'x.col.order_no', message: 'the order number' },
  'x.col.channel_id': /*i18n*/ { id: 'x.col.channel_id', message: 'the number of the recharge channel' },
  'x.col.channel_name': /*i18n*/ { id: 'x.col.channel_name', message: "the recharge channel's name" },
  'x.col.chain': /*i18n*/ { id: 'x.col.chain', message: 'the blockchain network' },
  'x.col.rate': /*i18n*/ { id: 'x.col.rate', message: 'the exchange rate used' },
  'x.col.actual_amount': /*i18n*/ {
    id: 'x.col.actual_amount',
    message: 'the amount credited or sent after conversion and fees',
  },
  'x.col.hash': /*i18n*/ { id: 'x.col.hash', message: 'the blockchain transaction hash' },
  'x.col.proof': /*i18n*/ { id: 'x.col.proof', message: 'the address of the receipt picture you sent' },
  'x.col.block_height': /*i18n*/ { id: 'x.col.block_height', message: 'the block the transaction is in' },
  'x.col.remark': /*i18n*/ { id: 'x.col.remark', message: 'your remark' },
  'x.col.reason': /*i18n*/ { id: 'x.col.reason', message: 'why it was rejected (empty when it was not)' },
  'x.col.reviewed_at': /*i18n*/ { id: 'x.col.reviewed_at', message: 'when it was reviewed' },
  'x.col.target': /*i18n*/ { id: 'x.col.target', message: 'where it went: a wallet or a bank card' },
  'x.col.payee_id': /*i18n*/ { id: 'x.col.payee_id', message: 'the number of the saved wallet or bank card' },
  'x.col.payee_name': /*i18n*/ { id: 'x.col.payee_name', message: "the payee's name" },
  'x.col.payee_account': /*i18n*/ { id: 'x.col.payee_account', message: 'the wallet address or card number' },
  'x.col.payee_network': /*i18n*/ { id: 'x.col.payee_network', message: 'the network or bank' },
  'x.col.fiat_currency': /*i18n*/ { id: 'x.col.fiat_currency', message: 'the currency paid out to a bank card' },
  'x.col.fiat_rate': /*i18n*/ { id: 'x.col.fiat_rate', message: 'the exchange rate to that currency' },
  'x.col.fiat_amount': /*i18n*/ { id: 'x.col.fiat_amount', message: 'the amount in that currency' },
  'x.col.mode': /*i18n*/ { id: 'x.col.mode', message: 'how the interest is paid' },
  'x.col.day': /*i18n*/ { id: 'x.col.day', message: 'the day it is for' },
  'x.col.pay_day': /*i18n*/ { id: 'x.col.pay_day', message: 'the day it is paid' },
  'x.col.paid_at': /*i18n*/ { id: 'x.col.paid_at', message: 'when it was paid' },
  'x.col.days': /*i18n*/ { id: 'x.col.days', message: 'the lock-up period, in days' },
  'x.col.daily_rate': /*i18n*/ { id: 'x.col.daily_rate', message: 'the daily interest rate (0.001 is 0.1 % a day)' },
  'x.col.daily_income': /*i18n*/ { id: 'x.col.daily_income', message: 'the interest a day' },
  'x.col.start_day': /*i18n*/ { id: 'x.col.start_day', message: 'the first day' },
  'x.col.end_day': /*i18n*/ { id: 'x.col.end_day', message: 'the last day' },
  'x.col.earned': /*i18n*/ { id: 'x.col.earned', message: 'the interest earned so far' },
  'x.col.ended_at': /*i18n*/ { id: 'x.col.ended_at', message: 'when it ended' },
  'x.col.doc_type': /*i18n*/ { id: 'x.col.doc_type', message: 'the kind of document' },
  'x.col.number': /*i18n*/ { id: 'x.col.number', message: "the document's number" },
  'x.col.images': /*i18n*/ { id: 'x.col.images', message: 'the pictures sent, by side' },
  'x.col.from': /*i18n*/ { id: 'x.col.from', message: 'who wrote it: the platform, you or customer service' },
  'x.col.to': /*i18n*/ { id: 'x.col.to', message: 'to whom: you, or everyone' },
  'x.col.at': /*i18n*/ { id: 'x.col.at', message: 'when it was sent' },
  'x.col.title': /*i18n*/ { id: 'x.col.title', message: 'the title' },
  'x.col.body': /*i18n*/ { id: 'x.col.body', message: 'the text' },
  'x.col.read_at': /*i18n*/ { id: 'x.col.read_at', message: 'when you read it (empty: unread)' },
  'x.col.picture': /*i18n*/ { id: 'x.col.picture', message: 'the address of a picture sent with it' },
  'x.col.device': /*i18n*/ { id: 'x.col.device', message: 'the device and browser' },
  'x.col.user_agent': /*i18n*/ { id: 'x.col.user_agent', message: 'what the browser said it is' },
  'x.col.signed_in_at': /*i18n*/ { id: 'x.col.signed_in_at', message: 'when you signed in' },
  'x.col.last_seen_at': /*i18n*/ { id: 'x.col.last_seen_at', message: 'when the sign-in was last used' },
  'x.col.name': /*i18n*/ { id: 'x.col.name', message: 'the name' },
  'x.col.address': /*i18n*/ { id: 'x.col.address', message: 'the address' },
  'x.col.currency': /*i18n*/ { id: 'x.col.currency', message: 'the currency' },
  'x.col.level': /*i18n*/ { id: 'x.col.level', message: 'the level' },
  'x.col.kind': /*i18n*/ { id: 'x.col.kind', message: 'what kind of record it is' },
  'x.col.profile.level': /*i18n*/ { id: 'x.col.profile.level', message: 'your VIP level' },
  'x.col.profile.currency': /*i18n*/ {
    id: 'x.col.profile.currency',
    message: 'the currency you chose for showing values',
  },
  'x.col.profile.created_at': /*i18n*/ { id: 'x.col.profile.created_at', message: 'when you registered' },
  'x.col.ledger.kind': /*i18n*/ {
    id: 'x.col.ledger.kind',
    message: 'what moved the balance (a recharge, a trade, a fee, interest…)',
  },
  'x.col.ledger.amount': /*i18n*/ { id: 'x.col.ledger.amount', message: 'the change: positive in, negative out' },
  'x.col.recharges.kind': /*i18n*/ {
    id: 'x.col.recharges.kind',
    message: 'crypto (to an address) or bank (a transfer with a receipt)',
  },
  'x.col.recharges.address': /*i18n*/ { id: 'x.col.recharges.address', message: 'the address or bank account paid to' },
  'x.col.recharges.currency': /*i18n*/ { id: 'x.col.recharges.currency', message: 'the currency the amount is in' },
  'x.col.recharges.amount': /*i18n*/ { id: 'x.col.recharges.amount', message: 'the amount you paid' },
  'x.col.liquidity.kind': /*i18n*/ { id: 'x.col.liquidity.kind', message: 'subscription, redemption or interest' },
  'x.col.lockups.name': /*i18n*/ { id: 'x.col.lockups.name', message: "the product's name" },
  'x.col.certifications.level': /*i18n*/ { id: 'x.col.certifications.level', message: 'primary or advanced' },
  'x.col.certifications.name': /*i18n*/ { id: 'x.col.certifications.name', message: 'the name on the document' },
  'x.col.certifications.created_at': /*i18n*/ {
    id: 'x.col.certifications.created_at',
    message: 'when you submitted it',
  },
  'x.col.messages.kind': /*i18n*/ {
    id: 'x.col.messages.kind',
    message: 'station (a message of the platform) or service (your customer-service conversation)',
  },
  'x.col.sessions.address': /*i18n*/ { id: 'x.col.sessions.address', message: 'the network address, partly hidden' },
  'x.col.sessions.ended_at': /*i18n*/ {
    id: 'x.col.sessions.ended_at',
    message: 'when the sign-in ended (empty: still signed in)',
  },
  'x.col.withdrawals.total': /*i18n*/ {
    id: 'x.col.withdrawals.total',
    message: 'the amount plus the fee, taken from your balance',
  },
  'x.col.contracts.total': /*i18n*/ { id: 'x.col.contracts.total', message: 'quantity × price of what was filled' },
  'x.col.resets': /*i18n*/ { id: 'x.col.resets', message: 'how many times you reset it' },
  'x.col.opened_at': /*i18n*/ { id: 'x.col.opened_at', message: 'when you opened it' },
  'x.col.reset_at': /*i18n*/ { id: 'x.col.reset_at', message: 'when you last reset it (empty: never)' },
  'x.col.frozen_since': /*i18n*/ {
    id: 'x.col.frozen_since',
    message: 'since when your account is frozen (empty: not frozen)',
  },
  'x.col.unfreeze_at': /*i18n*/ {
    id: 'x.col.unfreeze_at',
    message: 'when the unfreezing you asked for takes effect (empty: none asked for)',
  },
  'x.col.updated_at': /*i18n*/ { id: 'x.col.updated_at', message: 'when it last changed' },
  'x.col.real_name': /*i18n*/ { id: 'x.col.real_name', message: "the account holder's name" },
  'x.col.ifsc': /*i18n*/ { id: 'x.col.ifsc', message: "the bank branch's IFSC code" },
  'x.col.bank_code': /*i18n*/ { id: 'x.col.bank_code', message: "the bank's code" },
  'x.col.bank_number': /*i18n*/ { id: 'x.col.bank_number', message: 'the account or card number' },
  'x.col.label': /*i18n*/ { id: 'x.col.label', message: 'your own name for it (empty: none)' },
  'x.col.usable_at': /*i18n*/ {
    id: 'x.col.usable_at',
    message:
      'from when withdrawals to it are accepted, after the waiting period when it was saved (empty: saved before this was kept)',
  },
  'x.col.alias': /*i18n*/ { id: 'x.col.alias', message: 'your own name for the wallet' },
  'x.col.succeeded': /*i18n*/ { id: 'x.col.succeeded', message: 'true: signed in; false: a failed attempt' },
  'x.col.method': /*i18n*/ {
    id: 'x.col.method',
    message: 'how: password, passkey or code (the password with an authenticator code, or a code sent to you)',
  },
  'x.col.country': /*i18n*/ { id: 'x.col.country', message: 'the country of the address (ISO code; empty: unknown)' },
  'x.col.notice_day': /*i18n*/ {
    id: 'x.col.notice_day',
    message: 'the day (UTC) this failed attempt raised a security notice for its device (empty: none)',
  },
  'x.col.streak': /*i18n*/ { id: 'x.col.streak', message: 'how many days in a row, ending with this one' },
  'x.col.reward': /*i18n*/ { id: 'x.col.reward', message: 'the reward paid' },
  'x.col.seed_id': /*i18n*/ { id: 'x.col.seed_id', message: 'the number of the seed pair the draw used' },
  'x.col.nonce': /*i18n*/ { id: 'x.col.nonce', message: "the draw's number with that seed" },
  'x.col.client_seed': /*i18n*/ { id: 'x.col.client_seed', message: 'your client seed' },
  'x.col.roll': /*i18n*/ { id: 'x.col.roll', message: 'the roll, from 0 to 999999 (parts per million)' },
  'x.col.prize_id': /*i18n*/ { id: 'x.col.prize_id', message: 'the number of the prize won' },
  'x.col.prize_name': /*i18n*/ { id: 'x.col.prize_name', message: "the prize's name" },
  'x.col.prize_asset': /*i18n*/ { id: 'x.col.prize_asset', message: 'the asset the prize was paid in' },
  'x.col.prize_amount': /*i18n*/ { id: 'x.col.prize_amount', message: 'the amount of the prize' },
  'x.col.cost_asset': /*i18n*/ { id: 'x.col.cost_asset', message: 'the asset the draw was paid in' },
  'x.col.cost': /*i18n*/ { id: 'x.col.cost', message: 'what the draw cost' },
  'x.col.prize_table': /*i18n*/ {
    id: 'x.col.prize_table',
    message: "the prize table the roll was mapped onto: each prize's number and weight, in parts per million",
  },
  'x.col.task_code': /*i18n*/ { id: 'x.col.task_code', message: "the task's code" },
  'x.col.claimed_at': /*i18n*/ { id: 'x.col.claimed_at', message: 'when you claimed it' },
  'x.col.percent': /*i18n*/ {
    id: 'x.col.percent',
    message: 'for a move: the move in percent (5 is 5 %; empty otherwise)',
  },
  'x.col.fired_at': /*i18n*/ { id: 'x.col.fired_at', message: 'when it was met and you were told (empty: not yet)' },
  'x.col.fired_price': /*i18n*/ { id: 'x.col.fired_price', message: 'the recorded price that met it' },
  'x.col.fired_tick_at': /*i18n*/ { id: 'x.col.fired_tick_at', message: 'when that price was recorded' },
  'x.col.fired_from_price': /*i18n*/ {
    id: 'x.col.fired_from_price',
    message: 'for a move: the recorded price 24 hours before, that the move was measured from',
  },
  'x.col.endpoint_host': /*i18n*/ {
    id: 'x.col.endpoint_host',
    message: 'the push service the browser is reached through (its host name)',
  },
  'x.col.language': /*i18n*/ { id: 'x.col.language', message: 'the language its notifications are written in' },
  'x.col.off': /*i18n*/ {
    id: 'x.col.off',
    message: 'the kinds of notification you turned off (empty: every kind is on)',
  },
  'x.col.practice_balances.asset': /*i18n*/ {
    id: 'x.col.practice_balances.asset',
    message: 'the practice asset, as your ledger names it (practice:USDT…)',
  },
  'x.col.practice_balances.available': /*i18n*/ {
    id: 'x.col.practice_balances.available',
    message: 'virtual money you could trade with',
  },
  'x.col.practice_balances.frozen': /*i18n*/ {
    id: 'x.col.practice_balances.frozen',
    message: 'virtual money held for an open order',
  },
  'x.col.bank_cards.phone': /*i18n*/ { id: 'x.col.bank_cards.phone', message: 'the phone number given with the card' },
  'x.col.bank_cards.email': /*i18n*/ {
    id: 'x.col.bank_cards.email',
    message: 'the e-mail address given with the card',
  },
  'x.col.bank_cards.created_at': /*i18n*/ { id: 'x.col.bank_cards.created_at', message: 'when you saved it' },
  'x.col.wallets.address': /*i18n*/ { id: 'x.col.wallets.address', message: 'the wallet address' },
  'x.col.wallets.created_at': /*i18n*/ { id: 'x.col.wallets.created_at', message: 'when you saved it' },
  'x.col.login_history.at': /*i18n*/ { id: 'x.col.login_history.at', message: 'when it happened' },
  'x.col.login_history.address': /*i18n*/ {
    id: 'x.col.login_history.address',
    message: 'the network address, partly hidden',
  },
  'x.col.check_ins.day': /*i18n*/ {
    id: 'x.col.check_ins.day',
    message: "the day you checked in (in the platform's time zone for interest and check-ins)",
  },
  'x.col.check_ins.reward': /*i18n*/ { id: 'x.col.check_ins.reward', message: 'the points paid' },
  'x.col.check_ins.created_at': /*i18n*/ { id: 'x.col.check_ins.created_at', message: 'when you checked in' },
  'x.col.box_draws.created_at': /*i18n*/ { id: 'x.col.box_draws.created_at', message: 'when you drew' },
  'x.col.price_alerts.coin': /*i18n*/ { id: 'x.col.price_alerts.coin', message: 'the coin watched' },
  'x.col.price_alerts.kind': /*i18n*/ {
    id: 'x.col.price_alerts.kind',
    message: 'above or below (the price crosses yours), or move (the price moves by the percent within 24 hours)',
  },
  'x.col.price_alerts.price': /*i18n*/ {
    id: 'x.col.price_alerts.price',
    message: 'the price to cross (empty for a move)',
  },
  'x.col.price_alerts.created_at': /*i18n*/ {
    id: 'x.col.price_alerts.created_at',
    message: 'when you set it: only prices recorded after count',
  },
  'x.col.push_subscriptions.created_at': /*i18n*/ {
    id: 'x.col.push_subscriptions.created_at',
    message: 'when you turned notifications on in it',
  },
  'x.col.passkeys.name': /*i18n*/ { id: 'x.col.passkeys.name', message: 'the name the passkey is shown with' },
  'x.col.device_type': /*i18n*/ {
    id: 'x.col.device_type',
    message: 'singleDevice (kept on one device) or multiDevice (synced between your devices)',
  },
  'x.col.backed_up': /*i18n*/ { id: 'x.col.backed_up', message: 'whether the passkey is backed up (synced)' },
  'x.col.passkeys.created_at': /*i18n*/ { id: 'x.col.passkeys.created_at', message: 'when you added it' },
  'x.col.last_used_at': /*i18n*/ { id: 'x.col.last_used_at', message: 'when you last signed in with it' },
  'x.col.server_hash': /*i18n*/ {
    id: 'x.col.server_hash',
    message: 'the SHA-256 of the server seed, shown before its draws so that it could not be changed after',
  },
  'x.col.server_seed': /*i18n*/ {
    id: 'x.col.server_seed',
    message: 'the server seed, once revealed (empty while it is in use)',
  },
  'x.col.next_nonce': /*i18n*/ { id: 'x.col.next_nonce', message: 'the number of the next draw with this seed pair' },
  'x.col.box_seeds.created_at': /*i18n*/ { id: 'x.col.box_seeds.created_at', message: 'when the seed pair was made' },
  'x.col.revealed_at': /*i18n*/ { id: 'x.col.revealed_at', message: 'when the server seed was revealed' },
  'x.col.granted_at': /*i18n*/ { id: 'x.col.granted_at', message: 'when the permission was granted' },
  'x.col.invite_permission.reason': /*i18n*/ {
    id: 'x.col.invite_permission.reason',
    message: "the platform's note on the grant",
  },
} satisfies Record<string, MessageDescriptor>;

/** The text of a part's column: the part's own where it has one, else the column's general one; null for neither. */
export function columnText(part: string, column: string): MessageDescriptor | null {
  const texts: Record<string, MessageDescriptor> = exportTexts;
  return texts[`x.col.${part}.${column}`] ?? texts[`x.col.${column}`] ?? null;
}
