// What a route module is: one function, given the one scope every module gets, that registers its routes. The app
// (app.ts) registers every module from one list, in its order.
import type { FastifyInstance } from 'fastify';
import type { Services } from './context.ts';
import type { router } from './handle.ts';
import type { CachedAnswers } from './cached-answers.ts';
import type { AppSettings } from './settings.ts';
import type { Health } from '../observability/health.ts';

/** Binds a contract endpoint to its handler: `route(login, async (input, ctx) => …, { perMinute })` (handle.ts). */
export type Route = ReturnType<typeof router>;

/** Everything a route module may use; every module is given the same. */
export interface RouteScope {
  /** The app: for hooks, and for the routes that are no contract endpoint (price stream, uploads, health, metrics). */
  app: FastifyInstance;
  /** Binds contract endpoints to `app`. */
  route: Route;
  services: Services;
  /** The answers cached in memory, one set for the whole app. */
  cache: CachedAnswers;
  /** The app's settings (limits, passkeys' relying party, push services, the metrics token; null: no /metrics). */
  settings: AppSettings;
  /** The process's readiness (/readyz). */
  health: Health;
}

/** A route file's one export: registers its routes on the scope's app (awaited, in the list's order). */
export type RouteModule = (scope: RouteScope) => void | Promise<void>;
