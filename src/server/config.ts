// Server configuration, from the environment only (README lists every variable).
import { resolve } from 'node:path';
import type { DatabaseTarget } from './db/connection.ts';

export interface ServerConfig {
  port: number;
  host: string;
  database: DatabaseTarget;
  production: boolean;
  /** Folder of the built PWA served at `/` (production mode). */
  webRoot: string | null;
  /** Browser origins allowed to call the API from another host (VITE_API_BASE setups). */
  corsOrigins: string[];
  /** Proxy hops whose X-Forwarded-For is trusted for the client IP (rate limits); 0 = none. */
  trustProxyHops: number;
  /** Seed the demo account, config and slides on an empty database. */
  seedDemo: boolean;
  /** Requests per minute per IP on login, register and code calls. */
  authRateLimitPerMinute: number;
  logLevel: string;
  /** PRICE_FEED: the feed that prices the market (simulator). */
  priceFeed: string;
  /** FEED_SEED: the simulator's seed, so a run can be replayed. */
  feedSeed: number;
  /** CLOCK_SPEED: > 1 runs the server's clock faster (end-to-end tests of expiring options). */
  clockSpeed: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const production = env.NODE_ENV === 'production';
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '0.0.0.0',
    database: env.DATABASE_URL
      ? { kind: 'postgres', url: env.DATABASE_URL }
      : { kind: 'pglite', dataDir: resolve(env.DATA_DIR ?? 'data') },
    production,
    webRoot: env.WEB_ROOT === '' ? null : resolve(env.WEB_ROOT ?? 'dist'),
    corsOrigins: (env.CORS_ORIGINS ?? '').split(',').map((origin) => origin.trim()).filter(Boolean),
    trustProxyHops: Number(env.TRUST_PROXY_HOPS ?? 0),
    seedDemo: env.SEED_DEMO !== 'false',
    authRateLimitPerMinute: Number(env.AUTH_RATE_LIMIT ?? 30),
    logLevel: env.LOG_LEVEL ?? 'info',
    priceFeed: env.PRICE_FEED ?? 'simulator',
    feedSeed: Number(env.FEED_SEED ?? 20261122),
    clockSpeed: Math.max(1, Number(env.CLOCK_SPEED ?? 1)),
  };
}
