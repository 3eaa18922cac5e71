// The console's recharge channel calls (api-contract/console-channels.ts): the admin reads the channels and sets or
// clears a crypto channel's extended public key through domain/channel-keys.ts, each change with its audit entry in
// one transaction; a key is previewed (its fingerprint and first customer's address) on the same reader, writing
// nothing.
import {
  consolePreviewChannelKey,
  consoleRechargeChannels,
  consoleSetChannelKey,
} from '../../api-contract/console-channels.ts';
import { channelList, channelView, previewChannelKey, setChannelKeyAs } from '../domain/channel-keys.ts';
import { actorOf } from '../domain/operators.ts';
import type { RouteModule } from './route-module.ts';

export const consoleChannelRoutes: RouteModule = ({ route }) => {
  route(consoleRechargeChannels, async (_input, { db }) => (await channelList(db)).map(channelView));
  route(consolePreviewChannelKey, (input, { db }) => previewChannelKey(db, Number(input.id), input.xpub));
  route(consoleSetChannelKey, (input, { db, operator, ip, clock }) =>
    db.transaction((tx) => setChannelKeyAs(tx, actorOf(operator, ip), Number(input.id), input, clock.now())),
  );
};
