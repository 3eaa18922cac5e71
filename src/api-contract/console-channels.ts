// The admin's recharge channels: which crypto channel keeps an extended public key (BIP-32 "xpub", decision 0011),
// under which each customer is shown a deposit address of their own. The admin reads it, sees the first address a
// key gives before saving it, and sets or clears it; the server reads the key as the derivation does
// (server/domain/deposit-addresses.ts) and refuses a private key or anything else. Recharges already reported keep
// the address they recorded; only what customers are shown from then on changes.
import * as v from 'valibot';
import { consoleTexts } from './console-texts.ts';
import { NoInput, get, post, returns } from './endpoint.ts';
import { matching } from './fields.ts';
import { texts } from './texts.ts';
import { shape, whole } from './answers.ts';

const admin = { console: 'admin' } as const;
/** The customer whose address the console shows for a key, to check against the wallet: the first one, id 1. */
export const SAMPLE_CUSTOMER_ID = 1;

export const ConsoleRechargeChannel = shape({
  id: whole,
  name: v.string(),
  kind: v.string(),
  /** TRC20, ERC20, BEP20 or BTC; null for a bank channel, which keeps no key. */
  chain: v.nullable(v.string()),
  /** The one address every customer is shown while the channel keeps no key (a bank channel: its account). */
  address: v.string(),
  active: v.boolean(),
  /** The extended public key, or null: every customer is shown `address`. */
  xpub: v.nullable(v.string()),
  /** The key's BIP-32 fingerprint (8 hex digits, the first 4 bytes of HASH160 of its public key), as the audit log
   * names it. */
  fingerprint: v.nullable(v.string()),
  /** The address customer SAMPLE_CUSTOMER_ID is shown under the key (…/0/1). */
  sample_address: v.nullable(v.string()),
});
export type ConsoleRechargeChannel = v.InferOutput<typeof ConsoleRechargeChannel>;

/** What a key would give on a channel, before it is saved. */
export const ChannelKeyPreview = shape({ fingerprint: v.string(), sample_address: v.string() });
export type ChannelKeyPreview = v.InferOutput<typeof ChannelKeyPreview>;

const channelId = matching(/^\d{1,9}$/, consoleTexts.consoleRecordNotFound);
/** An extended public key as pasted (base58, 111 characters for BIP-32's 78 bytes); the server reads it. */
const key = v.pipe(v.string(texts.invalidRequest.id), v.trim(), v.maxLength(200, texts.invalidRequest.id));

/** Every recharge channel, offered or not, with its key. */
export const consoleRechargeChannels = get(
  '/console/channels',
  NoInput,
  returns(v.array(ConsoleRechargeChannel)),
  admin,
);
/** Reads a key as the channel would keep it and answers its fingerprint and the sample customer's address; refused as
 * the change would be. Writes nothing. */
export const consolePreviewChannelKey = post(
  '/console/channel/key/preview',
  v.object({ id: channelId, xpub: key }),
  returns(ChannelKeyPreview),
  { ...admin, readOnly: true },
);
/** Sets the channel's key (an empty one clears it: every customer is shown the channel's one address again); one audit
 * entry with the fingerprints before and after. Answers the channel as it now is. `replaces` is the key the admin saw
 * in force (empty for none): refused when another admin changed it meanwhile, so no change is made over one unseen. */
export const consoleSetChannelKey = post(
  '/console/channel/key',
  v.object({ id: channelId, xpub: key, replaces: key }),
  returns(ConsoleRechargeChannel),
  admin,
);
