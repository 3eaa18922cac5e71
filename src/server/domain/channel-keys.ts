// A crypto recharge channel's extended public key, set or cleared by an admin (decision 0011): read by the reader the
// derivation uses (deposit-addresses.ts), so a key the console takes is one every customer's address can be derived
// from. A private key is refused (the server must never hold one), as is a key of another version than xpub (the
// reader takes BIP-32's mainnet xpub only; a wallet's zpub or ypub names the same key in another form) and anything
// else, and so is a key of another level than an account's (BIP-44's m/purpose'/coin_type'/account', depth 3, below
// which the addresses are derived: deposit-addresses.ts, isAccountKey). Each refusal of a key names the request's
// field `xpub`. Each change is made over the key the admin saw in force (a change another admin made meanwhile is
// never undone unseen) and is one audit entry naming the keys before and after by fingerprint, with the sample
// customer's address under each. Recharges already reported keep the address they recorded (recharge_orders.address):
// only the address customers are shown from then on changes.
import { asc, eq } from 'drizzle-orm';
import { SAMPLE_CUSTOMER_ID, type ConsoleRechargeChannel } from '../../api-contract/console-channels.ts';
import { consoleTexts } from '../../api-contract/console-texts.ts';
import type { CHAINS } from '../../api-contract/constants.ts';
import { base58check } from '../../api-contract/chain-address.ts';
import type { Executor } from '../db/connection.ts';
import { rechargeChannels } from '../db/schema.ts';
import { appendAudit, type Actor } from './audit-log.ts';
import { depositAddressOf, isAccountKey, readExtendedPublicKey } from './deposit-addresses.ts';
import { Refusal } from './refusal.ts';

type ChannelRow = typeof rechargeChannels.$inferSelect;
type Chain = (typeof CHAINS)[number];

/** BIP-32's serialized key: version 4, depth 1, parent fingerprint 4, child number 4, chain code 32, key 33 bytes. */
const SERIALIZED_LENGTH = 78;
/** The request field a key's refusal is about. */
const KEY_FIELD = 'xpub';
/** Where the key data starts: a private key's is 0x00 and its 32 bytes, a public key's 0x02 or 0x03 and its x. */
const KEY_DATA_AT = 45;

/** A refusal of the key typed, about its field. */
const keyRefusal = (textId: ConstructorParameters<typeof Refusal>[0]) => new Refusal(textId, undefined, KEY_FIELD);

/**
 * Why `xpub` is no key a channel keeps, as a refusal: readExtendedPublicKey's error told apart by the serialized bytes.
 */
function refusalOf(xpub: string): Refusal {
  let bytes: Uint8Array | null = null;
  try {
    bytes = base58check.decode(xpub.trim());
  } catch {
    // not base58check at all
  }
  if (bytes?.length !== SERIALIZED_LENGTH) return keyRefusal(consoleTexts.consoleChannelKeyInvalid.id);
  if (bytes[KEY_DATA_AT] === 0) return keyRefusal(consoleTexts.consoleChannelKeyPrivate.id);
  // A public key the reader refused: another version's (zpub, ypub, tpub), or one not on the curve.
  return keyRefusal(
    readExtendedPublicKeyTakes(bytes)
      ? consoleTexts.consoleChannelKeyInvalid.id
      : consoleTexts.consoleChannelKeyVersion.id,
  );
}

/** Whether the serialized key carries xpub's version (0x0488B21E), the one readExtendedPublicKey takes. */
const readExtendedPublicKeyTakes = (bytes: Uint8Array) =>
  bytes[0] === 0x04 && bytes[1] === 0x88 && bytes[2] === 0xb2 && bytes[3] === 0x1e;

/**
 * What `xpub` gives on `channel`: its fingerprint (8 hex digits) and the address of customer SAMPLE_CUSTOMER_ID.
 * @throws Refusal consoleChannelNotCrypto for a channel without a chain; consoleChannelKeyPrivate,
 * consoleChannelKeyVersion, consoleChannelKeyInvalid or consoleChannelKeyNotAccount (a key that is not an account's:
 * isAccountKey) for a key the channel cannot keep, each about the field `xpub`.
 */
export function channelKeyPreview(channel: Pick<ChannelRow, 'name' | 'chain'>, xpub: string) {
  if (!channel.chain) throw new Refusal(consoleTexts.consoleChannelNotCrypto.id, { name: channel.name });
  let key: ReturnType<typeof readExtendedPublicKey>;
  try {
    key = readExtendedPublicKey(xpub);
  } catch {
    throw refusalOf(xpub);
  }
  if (!isAccountKey(key)) throw keyRefusal(consoleTexts.consoleChannelKeyNotAccount.id);
  return {
    fingerprint: key.fingerprint.toString(16).padStart(8, '0'),
    sample_address: depositAddressOf(channel.chain as Chain, xpub, SAMPLE_CUSTOMER_ID),
  };
}

/**
 * What `xpub` would give on channel `id` (channelKeyPreview), writing nothing.
 * @throws Refusal consoleRecordNotFound for no such channel, or channelKeyPreview's refusals.
 */
export async function previewChannelKey(db: Executor, id: number, xpub: string) {
  const [channel] = await db.select().from(rechargeChannels).where(eq(rechargeChannels.id, id));
  if (!channel) throw new Refusal(consoleTexts.consoleRecordNotFound.id);
  return channelKeyPreview(channel, xpub);
}

/** A channel as the admin reads it (the console's list, and the audit log's before and after without the key). */
export function channelView(row: ChannelRow): ConsoleRechargeChannel {
  let preview: ReturnType<typeof channelKeyPreview> | null = null;
  try {
    if (row.xpub && row.chain) preview = channelKeyPreview(row, row.xpub);
  } catch {
    // A key the console would refuse (written into the database by hand, or of another level than an account's, saved
    // before that was refused): shown without what it would give, so the admin sees it and replaces it.
  }
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    chain: row.chain,
    address: row.address,
    active: row.active,
    xpub: row.xpub,
    fingerprint: preview?.fingerprint ?? null,
    sample_address: preview?.sample_address ?? null,
  };
}

/** Every recharge channel, offered or not, in the order customers see them. */
export const channelList = (db: Executor) =>
  db.select().from(rechargeChannels).orderBy(asc(rechargeChannels.sort), asc(rechargeChannels.id));

/** The key's part of a channel for the audit log: fingerprint and sample address, or null for none. */
const keyOf = (view: ConsoleRechargeChannel) =>
  view.fingerprint ? { fingerprint: view.fingerprint, sample_address: view.sample_address } : null;

/**
 * Sets channel `id`'s extended public key (trimmed; empty clears it) in place of `replaces` (the key the admin saw in
 * force, empty for none), with its audit entry `channel.key` (the keys before and after by fingerprint and sample
 * address), in the caller's transaction. From then on each customer is shown their address under the new key (or the
 * channel's one address); recharges already reported keep theirs, and the key replaced is kept among the channel's
 * previous keys (customers' addresses under it stay refused as wallets).
 * @throws Refusal consoleRecordNotFound for no such channel; consoleChannelKeyChanged when the key in force is not
 * `replaces` (another admin changed it since the page was read: the later change would undo theirs unseen); or
 * channelKeyPreview's refusals.
 */
export async function setChannelKeyAs(
  tx: Executor,
  actor: Actor,
  id: number,
  { xpub, replaces }: { xpub: string; replaces: string },
  now: Date,
) {
  const [before] = await tx.select().from(rechargeChannels).where(eq(rechargeChannels.id, id)).for('update');
  if (!before) throw new Refusal(consoleTexts.consoleRecordNotFound.id);
  if ((before.xpub ?? '') !== replaces.trim())
    throw new Refusal(consoleTexts.consoleChannelKeyChanged.id, { name: before.name });
  const key = xpub.trim() || null;
  if (key) channelKeyPreview(before, key);
  // The key replaced is kept: customers' addresses under it stay the platform's (the wallet check refuses them).
  const previousXpubs =
    before.xpub && before.xpub !== key && !before.previousXpubs.includes(before.xpub)
      ? [...before.previousXpubs, before.xpub]
      : before.previousXpubs;
  const [after] = await tx
    .update(rechargeChannels)
    .set({ xpub: key, previousXpubs })
    .where(eq(rechargeChannels.id, id))
    .returning();
  const view = channelView(after!);
  await appendAudit(
    tx,
    actor,
    'channel.key',
    `channel:${id}`,
    { before: { key: keyOf(channelView(before)) }, after: { key: keyOf(view) } },
    now,
  );
  return view;
}
