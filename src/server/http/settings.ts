// The settings the app and its handlers take from the configuration (config.ts), each taken in one place: start.ts
// passes a configured server's, the tests an unconfigured one's (loadConfig({})), so no second default exists.
import type { ServerConfig } from '../config.ts';

/** The settings handlers read (Services): where interest days start, payees' cooling-off, sessions, the console. */
export type ServiceSettings = Pick<
  ServerConfig,
  'earnTimeZone' | 'payeeCoolingMs' | 'sessionLimits' | 'operatorConsole' | 'reconcileEveryMs'
>;

/** The handlers' settings of `config`. */
export function serviceSettings(config: ServerConfig): ServiceSettings {
  const { earnTimeZone, payeeCoolingMs, sessionLimits, operatorConsole, reconcileEveryMs } = config;
  return { earnTimeZone, payeeCoolingMs, sessionLimits, operatorConsole, reconcileEveryMs };
}

/** The settings the app is built with (http/app.ts): what it serves, its limits, passkeys, the sign-in history's
 * address-to-country table, push, metrics. */
export type AppSettings = Pick<
  ServerConfig,
  | 'webRoot'
  | 'corsOrigins'
  | 'trustProxyHops'
  | 'authRateLimitPerMinute'
  | 'addressRateLimitPerMinute'
  | 'accountRateLimitPerMinute'
  | 'shedding'
  | 'pushServiceHosts'
  | 'relyingParty'
  | 'loginCountryFile'
  | 'metricsToken'
>;

/** The app's settings of `config`. */
export function appSettings(config: ServerConfig): AppSettings {
  const {
    webRoot,
    corsOrigins,
    trustProxyHops,
    authRateLimitPerMinute,
    addressRateLimitPerMinute,
    accountRateLimitPerMinute,
    shedding,
    pushServiceHosts,
    relyingParty,
    loginCountryFile,
    metricsToken,
  } = config;
  return {
    webRoot,
    corsOrigins,
    trustProxyHops,
    authRateLimitPerMinute,
    addressRateLimitPerMinute,
    accountRateLimitPerMinute,
    shedding,
    pushServiceHosts,
    relyingParty,
    loginCountryFile,
    metricsToken,
  };
}
