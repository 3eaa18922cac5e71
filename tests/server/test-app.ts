// What a test builds an app with (buildApp) besides its own database, clock and market: the settings of a server
// started with no variable set, so the tests take each default from the one place it is declared
// (src/server/config-schema.ts), never a copy of it. Free of vitest: the benches use it too.
import type { AppOptions } from '../../src/server/http/app.ts';
import type { Services } from '../../src/server/http/context.ts';
import { appSettings, serviceSettings } from '../../src/server/http/settings.ts';
import { loadConfig } from '../../src/server/config.ts';
import { buildInfo } from '../../src/server/build-info.ts';
import { ephemeralTwoFactorKey } from '../../src/server/domain/two-factor-key.ts';
import { ephemeralReceiptKeys } from '../../src/server/domain/receipt-keys.ts';

/** A server started with no variable set but WEB_ROOT empty (the API alone): every setting at its one default. */
export const unconfigured = loadConfig({ WEB_ROOT: '' });

/**
 * A test app's services: `given`, the rest as an unconfigured server has them (its settings, the development build),
 * with the process's own two-factor key and no change notices (every read goes to the database) unless given; read-only
 * calls on `db` unless `reads` is given (a Database's own).
 */
export function testServices(
  given: Pick<Services, 'db' | 'clock' | 'market' | 'sender'> & Partial<Services>,
): Services {
  return {
    ...serviceSettings(unconfigured),
    changes: null,
    twoFactorKey: ephemeralTwoFactorKey(),
    receiptKeys: ephemeralReceiptKeys(),
    build: buildInfo(null, unconfigured.buildId),
    reads: given.db,
    ...given,
  };
}

/** A test app's options: an unconfigured server's settings (no build served), `given` on top. */
export const testAppOptions = (given: Partial<AppOptions> = {}): AppOptions => ({
  ...appSettings(unconfigured),
  ...given,
});
