// The console's content calls (api-contract/console-content.ts): every language's version of one item,
// and one language's version written with its audit entry in one transaction
// (domain/content-languages.ts, the same function the operator command calls).
import {
  consoleContentItems,
  consoleContentVersions,
  consoleSaveContentVersion,
} from '../../api-contract/console-content.ts';
import { contentItems, contentVersions, saveContentVersion } from '../domain/content-languages.ts';
import { actorOf } from '../domain/operators.ts';
import type { RouteModule } from './route-module.ts';

export const consoleContentRoutes: RouteModule = ({ route }) => {
  route(consoleContentItems, (input, { db }) => contentItems(db, input.kind));
  route(consoleContentVersions, (input, { db }) => contentVersions(db, input.kind, input.id));
  route(consoleSaveContentVersion, (input, { db, operator, ip, clock }) =>
    db.transaction((tx) =>
      saveContentVersion(
        tx,
        actorOf(operator, ip),
        { kind: input.kind, id: input.id, lang: input.lang },
        { title: input.title, body: input.body },
        clock.now(),
      ),
    ),
  );
};
