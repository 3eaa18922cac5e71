// How the contract screens write an order's amounts: one formatter for every amount of the pair's coin.
import { QUOTE_ASSET } from '../../api-contract/contracts.ts';
import { formatMoney, formatQuantity } from '../../lib/format.ts';

/**
 * An amount of a contract order (its quantity, total, fee, what it spends or receives, what it holds) written for the
 * asset it counts: an amount of the pair's coin as its quantity is written (formatQuantity: every digit it has and none
 * it lacks, so "0.1 BTC" received beside a quantity of "0.1 BTC", never "0.10 BTC"), USDT as money (formatMoney, 2 to 8
 * decimals). A coin's quantity is a multiple of the pair's step, so it shows at most the step's decimals; a fee taken
 * in the coin may have more (up to 8), and they are shown, since that is what the account is charged.
 */
export function formatOrderAmount(amount: string, asset: string | null | undefined): string {
  return asset && asset !== QUOTE_ASSET ? formatQuantity(amount) : formatMoney(amount);
}
