// The blind box: the prize table and the caller's seed, a draw, setting the client seed,
// rotating the seed and the past draws. The rules live in domain/blindbox.ts.
import { blindBoxDraws, blindBoxInfo, drawBlindBox, rotateSeed, setClientSeed } from '../../api-contract/blindbox.ts';
import { blindBoxInfo as infoOf, draw, drawHistory, rotate } from '../domain/blindbox.ts';
import type { RouteModule } from './route-module.ts';

export const blindBoxRoutes: RouteModule = ({ route }) => {
  route(blindBoxInfo, (_input, { db, caller, clock }) => infoOf(db, caller.userId, clock.now()));
  route(drawBlindBox, (input, { db, caller, clock }) =>
    db.transaction((tx) => draw(tx, caller.userId, input.pay, clock.now())),
  );
  // A new client seed starts a new seed pair: the draws made so far stay checkable with the old one.
  route(setClientSeed, (input, { db, caller, clock }) =>
    db.transaction((tx) => rotate(tx, caller.userId, input.client_seed, clock.now())),
  );
  route(rotateSeed, (_input, { db, caller, clock }) =>
    db.transaction((tx) => rotate(tx, caller.userId, null, clock.now())),
  );
  route(blindBoxDraws, (input, { db, caller }) => drawHistory(db, caller.userId, input.cursor));
};
