// The blind box: the prize table and the caller's seed, a draw, setting the client seed,
// rotating the seed and the past draws. The rules live in domain/blindbox.ts.
import { blindBoxDraws, blindBoxInfo, drawBlindBox, rotateSeed, setClientSeed } from '../../api-contract/blindbox.ts';
import { blindBoxInfo as infoOf, draw, drawHistory, rotate } from '../domain/blindbox.ts';
import { namedIn } from '../domain/content-languages.ts';
import type { RouteModule } from './route-module.ts';

// Prizes and draws carry the prize's name in the request's language where operators wrote one.
export const blindBoxRoutes: RouteModule = ({ route }) => {
  route(blindBoxInfo, async (_input, { db, caller, clock, locale }) => {
    const info = await infoOf(db, caller.userId, clock.now());
    return { ...info, prizes: await namedIn(db, 'prize', info.prizes, 'name', (prize) => prize.id, locale) };
  });
  route(drawBlindBox, async (input, { db, caller, clock, locale }) => {
    const drawn = await db.transaction((tx) => draw(tx, caller.userId, input.pay, clock.now(), input.cost));
    const [named] = await namedIn(db, 'prize', [drawn.draw], 'prize_name', (row) => row.prize_id, locale);
    return { ...drawn, draw: named! };
  });
  // A new client seed starts a new seed pair: the draws made so far stay checkable with the old one.
  route(setClientSeed, (input, { db, caller, clock }) =>
    db.transaction((tx) => rotate(tx, caller.userId, input.client_seed, clock.now())),
  );
  route(rotateSeed, (_input, { db, caller, clock }) =>
    db.transaction((tx) => rotate(tx, caller.userId, null, clock.now())),
  );
  route(blindBoxDraws, async (input, { db, caller, locale }) => {
    const page = await drawHistory(db, caller.userId, input.cursor);
    return { ...page, lists: await namedIn(db, 'prize', page.lists, 'prize_name', (row) => row.prize_id, locale) };
  });
};
