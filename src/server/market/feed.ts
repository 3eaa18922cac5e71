// A price feed delivers ticks; the market records them (every tick used for settlement is
// stored) and fans them out. The simulator is the default; another feed plugs in here by name.
export interface Tick {
  coin: string;
  at: Date;
  /** Decimal string, as recorded. */
  price: string;
  /** Traded volume in this step, in coin units. */
  volume: string;
  /** A market index's tick: the exchanges' prices it was made of (recorded with it). */
  constituents?: { exchange: string; price: string; at: Date }[];
}

export interface PriceFeed {
  readonly name: string;
  /** Prices that do not come from a real market: the UI labels them "simulated". */
  readonly simulated: boolean;
  /**
   * A simulator replaying a seed it was given: its prices are known in advance to whoever knows the
   * seed, so it is for tests and replays only, and the log and the UI say so.
   */
  readonly seeded: boolean;
  /**
   * Starts delivering each step's ticks to `onTicks`, with the coins it could not price this step
   * (halted: none for the simulator); a feed never calls it again before it resolved.
   */
  start(onTicks: (ticks: Tick[], halted?: readonly string[]) => Promise<void>): void;
  stop(): Promise<void>;
  /**
   * Before start(), when this process takes the feed over from another (one market across
   * processes): continue from these recorded prices and only after `after`, never re-using a
   * recorded second. A feed of a real exchange has no state to carry over and may leave it out.
   */
  resume?(from: { prices: Map<string, string>; after: Date | null }): void;
}

export interface CoinSpec {
  code: string;
  startPrice: string;
  /** Annualised volatility, e.g. 0.6. */
  volatility: number;
  priceDecimals: number;
}
