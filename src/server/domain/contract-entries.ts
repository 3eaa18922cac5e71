// The ledger kinds and reference of a contract order's entries, shared by placement and matching (contracts.ts) and the
// conditional orders' triggers (contract-triggers.ts).

/** The ledger kinds a contract order posts: its reserve frozen, a fill, a revoke, a void (no fill in time or beyond
 * its reserve), a conditional order's expiry. */
export const CONTRACT_ENTRY = {
  freeze: 'contract_freeze',
  trade: 'contract_trade',
  cancel: 'contract_cancel',
  void: 'contract_void',
  expire: 'contract_expire',
} as const;

/** The ledger kinds of a small balance's conversion (a contract order marked dust_conversion): the amount held when
 * asked, its fill, its return when void. */
export const DUST_ENTRY = {
  freeze: 'dust_hold',
  trade: 'dust_convert',
  void: 'dust_return',
} as const;

/** What every contract order's ledger reference starts with. */
export const CONTRACT_REFERENCE_PREFIX = 'contract:';
/** The ledger reference of contract order `id`: "contract:42". */
export const contractReference = (id: number) => `${CONTRACT_REFERENCE_PREFIX}${id}`;
