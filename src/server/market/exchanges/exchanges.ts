// The exchanges the index can read, by name, and how configuration picks them: INDEX_EXCHANGES
// (comma-separated names) and, per exchange, EXCHANGE_<NAME>_WS / EXCHANGE_<NAME>_REST to point it
// elsewhere (a regional host, a local stand-in in tests). Adding an exchange is one file and one line here.
import type { Exchange, ExchangeEndpoints } from './exchange.ts';
import { BINANCE_ENDPOINTS, binance } from './binance.ts';
import { OKX_ENDPOINTS, okx } from './okx.ts';
import { KRAKEN_ENDPOINTS, kraken } from './kraken.ts';

const KNOWN: Record<string, { make: (endpoints: ExchangeEndpoints) => Exchange; endpoints: ExchangeEndpoints }> = {
  binance: { make: binance, endpoints: BINANCE_ENDPOINTS },
  okx: { make: okx, endpoints: OKX_ENDPOINTS },
  kraken: { make: kraken, endpoints: KRAKEN_ENDPOINTS },
};

export const DEFAULT_INDEX_EXCHANGES = 'binance,okx,kraken';

/** The configured exchanges; an unknown name stops the start (a typo must not quietly shrink the index). */
export function configuredExchanges(env: NodeJS.ProcessEnv): Exchange[] {
  const names = (env.INDEX_EXCHANGES ?? DEFAULT_INDEX_EXCHANGES)
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  const unknown = names.filter((name) => !KNOWN[name]);
  if (unknown.length)
    throw new Error(`INDEX_EXCHANGES names ${unknown.join(', ')}: known are ${Object.keys(KNOWN).join(', ')}.`);
  if (new Set(names).size < 3)
    throw new Error(`INDEX_EXCHANGES=${names.join(',')}: the index needs at least three different exchanges.`);
  return [...new Set(names)].map((name) => {
    const { make, endpoints } = KNOWN[name]!;
    const upper = name.toUpperCase();
    return make({
      socket: env[`EXCHANGE_${upper}_WS`] || endpoints.socket,
      rest: env[`EXCHANGE_${upper}_REST`] || endpoints.rest,
    });
  });
}
