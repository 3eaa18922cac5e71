// The console's product calls (api-contract/console-products.ts): the admin reads option products and
// pairs, and changes their terms through the same functions as `npm run ops -- product|pair`
// (domain/settings.ts), each change with its audit entry in one transaction.
import {
  CONTRACT_PAIR_TERMS,
  OPTION_PRODUCT_TERMS,
  consoleChangeContractPair,
  consoleChangeOptionProduct,
  consoleContractPairs,
  consoleOptionProducts,
} from '../../api-contract/console-products.ts';
import {
  changeContractPairAs,
  changeOptionProductAs,
  contractPairList,
  contractPairTerms,
  optionProductList,
  optionProductTerms,
} from '../domain/settings.ts';
import { actorOf } from '../domain/operators.ts';
import type { RouteModule } from './route-module.ts';

/** The terms sent, as the `term=value` changes the operator command takes (an emptied field is sent, and refused
 * there). */
const changesOf = <T extends string>(terms: readonly T[], input: Partial<Record<T, string>>) =>
  terms.filter((term) => input[term] !== undefined).map((term) => `${term}=${input[term]}`);

export const consoleProductRoutes: RouteModule = ({ route }) => {
  route(consoleOptionProducts, async (_input, { db }) => (await optionProductList(db)).map(optionProductTerms));
  route(consoleChangeOptionProduct, async (input, { db, operator, ip, clock }) =>
    optionProductTerms(
      await db.transaction((tx) =>
        changeOptionProductAs(
          tx,
          actorOf(operator, ip),
          Number(input.id),
          changesOf(OPTION_PRODUCT_TERMS, input),
          clock.now(),
        ),
      ),
    ),
  );
  route(consoleContractPairs, async (_input, { db }) => (await contractPairList(db)).map(contractPairTerms));
  route(consoleChangeContractPair, async (input, { db, operator, ip, clock }) =>
    contractPairTerms(
      await db.transaction((tx) =>
        changeContractPairAs(tx, actorOf(operator, ip), input.coin, changesOf(CONTRACT_PAIR_TERMS, input), clock.now()),
      ),
    ),
  );
};
