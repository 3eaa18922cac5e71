// The exchanges the index can read, by name, and how configuration picks them: INDEX_EXCHANGES
// (comma-separated names) and, per exchange, EXCHANGE_<NAME>_WS / EXCHANGE_<NAME>_REST to point it
// elsewhere (a regional host, a local stand-in in tests). Adding an exchange is one file and one line here.
import type { Exchange, ExchangeEndpoints } from './exchange.ts';
import { BINANCE_ENDPOINTS, binance } from './binance.ts';
import { OKX_ENDPOINTS, okx } from './okx.ts';
import { KRAKEN_ENDPOINTS, kraken } from './kraken.ts';

const KNOWN = {
  binance: { make: binance, endpoints: BINANCE_ENDPOINTS },
  okx: { make: okx, endpoints: OKX_ENDPOINTS },
  kraken: { make: kraken, endpoints: KRAKEN_ENDPOINTS },
} satisfies Record<string, { make: (endpoints: ExchangeEndpoints) => Exchange; endpoints: ExchangeEndpoints }>;

/** An exchange the index can read, by the name INDEX_EXCHANGES gives it. */
export type ExchangeName = keyof typeof KNOWN;

/** Every exchange the index can read (config-schema.ts declares EXCHANGE_<NAME>_WS / _REST for each). */
export const EXCHANGE_NAMES = Object.keys(KNOWN) as ExchangeName[];

/** Where an exchange is reached unless configuration points it elsewhere: its public hosts. */
export const publicEndpoints = (name: ExchangeName): ExchangeEndpoints => KNOWN[name].endpoints;

export const DEFAULT_INDEX_EXCHANGES = 'binance,okx,kraken';

/**
 * The exchanges `names` lists (INDEX_EXCHANGES, comma-separated), each reached at `endpointsOf(name)`. An unknown name,
 * or fewer than three different exchanges, stops the start: a typo must not quietly shrink the index.
 */
export function configuredExchanges(names: string, endpointsOf: (name: ExchangeName) => ExchangeEndpoints): Exchange[] {
  const listed = names
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  const unknown = listed.filter((name) => !Object.hasOwn(KNOWN, name));
  if (unknown.length)
    throw new Error(`INDEX_EXCHANGES names ${unknown.join(', ')}: known are ${EXCHANGE_NAMES.join(', ')}.`);
  if (new Set(listed).size < 3)
    throw new Error(`INDEX_EXCHANGES=${listed.join(',')}: the index needs at least three different exchanges.`);
  return [...new Set(listed as ExchangeName[])].map((name) => KNOWN[name].make(endpointsOf(name)));
}
