// Pages of text (company profile, intro, FAQ; our /content/page) in the request language,
// English when that language has none. Public: the help pages open before logging in.
import { contentPage } from '../../api-contract/support.ts';
import { contentPageFor } from '../domain/content-pages.ts';
import type { RouteModule } from './route-module.ts';

export const supportRoutes: RouteModule = ({ route }) => {
  route(contentPage, (input, { db, locale }) => contentPageFor(db, input.key, input.lang ?? locale));
};
