// The customer writes that move funds, by their API contract path, each with the input field that holds its amount
// ('' for none). Plain paths, not the endpoints: the module that keeps lost writes loads after every first screen, and
// the endpoints would bring their modules' schemas with it. tests/unit/lost-answers.test.tsx checks every path
// against its endpoint.
export const FUNDS_WRITES: Readonly<Record<string, string>> = {
  /** placeOption */
  '/coin/order/add': 'amount',
  /** placeContract */
  '/coin/trans/add': '',
  /** lockupSubscribe */
  '/lockup/subscribe': 'amount',
  /** transferIn (liquidity) */
  '/yuebao/transfer/in': 'amount',
  /** transferOut (liquidity) */
  '/yuebao/transfer/out': 'amount',
  /** submitWithdraw */
  '/users/extract': 'amount',
  /** submitRecharge */
  '/pay/submit': 'amount',
  /** convertSmallBalances */
  '/coin/trans/dust': '',
  /** drawBlindBox */
  '/blindbox/draw': '',
  /** redeemPoints */
  '/users/ptomoney': 'number',
};
