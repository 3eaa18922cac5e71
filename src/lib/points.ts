// Points (a balance redeemed for USDT), as the rewards, sign-in and welfare pages show them. Apart from
// format.ts, which the tab pages load at start, so that none of them carries it.
import Big from 'big.js';
import { formatExact } from './format.ts';

/** Points with thousands separators and only the decimals they have: "2,500", "12.5". */
export const formatPoints = (value: string) => formatExact(new Big(value).abs().toFixed());
