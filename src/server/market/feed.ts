// A price feed delivers ticks; the market records them (every tick used for settlement is
// stored) and fans them out. The simulator is the default; another feed plugs in here by name.
export interface Tick {
  coin: string;
  at: Date;
  /** Decimal string, as recorded. */
  price: string;
  /** Traded volume in this step, in coin units. */
  volume: string;
}

export interface PriceFeed {
  readonly name: string;
  /** Prices that do not come from a real market: the UI labels them "simulated". */
  readonly simulated: boolean;
  /** Starts delivering ticks to `onTicks`; a feed never calls it again before it resolved. */
  start(onTicks: (ticks: Tick[]) => Promise<void>): void;
  stop(): Promise<void>;
}

export interface CoinSpec {
  code: string;
  startPrice: string;
  /** Annualised volatility, e.g. 0.6. */
  volatility: number;
  priceDecimals: number;
}
