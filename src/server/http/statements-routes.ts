// Statements (api-contract/statements.ts): the caller's own ledger of one asset over a period.
import { statement } from '../../api-contract/statements.ts';
import { statementOf } from '../domain/statements.ts';
import type { RouteModule } from './route-module.ts';

export const statementsRoutes: RouteModule = ({ route }) => {
  route(statement, (input, { db, caller }) =>
    statementOf(db, caller.userId, {
      asset: input.asset,
      from: input.from,
      to: input.to,
      timeZone: input.tz,
      after: input.after === undefined ? undefined : Number(input.after),
    }),
  );
};
