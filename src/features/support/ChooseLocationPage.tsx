// Choose location (/pages/map/chooseLocation): the device's position through the Geolocation API — the
// browser asks for the permission when the button is tapped; a refusal, a failure or a browser
// without the API each get a clear text ("H5 doesn't support this feature yet!"). The user
// confirms the position found, which opens it on the open-location page. Searching places by
// keyword (uni-app's `keyword`) needs the native app: "app can't perform this function!".
import { useState } from 'react';
import { useSearch } from 'wouter';
import { Trans, useLingui } from '@lingui/react/macro';
import { i18n } from '@lingui/core';
import { ROUTES } from '../../api-contract/routes.ts';
import { texts } from '../../api-contract/texts.ts';
import { navigate } from '../../lib/navigation.ts';
import { Button } from '../../ui/forms.tsx';
import { MapPinIcon } from '../../ui/icons.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { Ltr } from '../../ui/records.tsx';
import { failureOf, formatDegrees, openLocationQuery, type Coordinates, type LocateFailure } from './map.ts';
import './support.css';

type Step =
  | { kind: 'idle' }
  | { kind: 'locating' }
  | { kind: 'found'; place: Coordinates; accuracy: number }
  | { kind: 'failed'; why: LocateFailure };

/** How long the browser may look for a position. */
const LOCATE_TIMEOUT_MS = 20_000;

function locate(done: (step: Step) => void): void {
  if (typeof navigator === 'undefined' || !('geolocation' in navigator))
    return done({ kind: 'failed', why: 'unsupported' });
  if (!window.isSecureContext) return done({ kind: 'failed', why: 'insecure' });
  navigator.geolocation.getCurrentPosition(
    (position) =>
      done({
        kind: 'found',
        place: { lat: position.coords.latitude, lng: position.coords.longitude },
        accuracy: position.coords.accuracy,
      }),
    (error) => done({ kind: 'failed', why: failureOf(error.code) }),
    { enableHighAccuracy: true, timeout: LOCATE_TIMEOUT_MS, maximumAge: 60_000 },
  );
}

export default function ChooseLocationPage() {
  const { t } = useLingui();
  const keyword = new URLSearchParams(useSearch()).get('keyword')?.trim() ?? '';
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const start = () => {
    setStep({ kind: 'locating' });
    locate(setStep);
  };
  const confirm = (place: Coordinates) =>
    navigate(`${ROUTES.openLocation}?${openLocationQuery(place, t`My location`)}`, { replace: true });

  return (
    <div className="page support-page">
      <NavBar title={<Trans>Choose location</Trans>} />
      <div className="page-body">
        {keyword && (
          <p className="card map-note" role="note">
            {i18n._(texts.appCannotPerform)}{' '}
            <Trans>Searching places needs the mobile app; you can use your current position instead.</Trans>
          </p>
        )}
        <section className="card map-place" aria-live="polite">
          <MapPinIcon />
          {step.kind === 'idle' && (
            <p>
              <Trans>Use your device's position. Your browser will ask whether this app may see it.</Trans>
            </p>
          )}
          {step.kind === 'locating' && (
            <p className="map-progress" role="status">
              <span className="map-spinner" aria-hidden="true" />
              <Trans>Finding your position…</Trans>
            </p>
          )}
          {step.kind === 'failed' && <LocateFailureText why={step.why} />}
          {step.kind === 'found' && (
            <dl className="map-coords">
              <div>
                <dt>
                  <Trans>Latitude</Trans>
                </dt>
                <dd>
                  <Ltr>{formatDegrees(step.place.lat)}</Ltr>
                </dd>
              </div>
              <div>
                <dt>
                  <Trans>Longitude</Trans>
                </dt>
                <dd>
                  <Ltr>{formatDegrees(step.place.lng)}</Ltr>
                </dd>
              </div>
              <div>
                <dt>
                  <Trans>Accuracy</Trans>
                </dt>
                <dd>
                  <Ltr>± {Math.round(step.accuracy)} m</Ltr>
                </dd>
              </div>
            </dl>
          )}
          {step.kind === 'found' ? (
            <>
              <Button onClick={() => confirm(step.place)}>
                <Trans>Confirm this location</Trans>
              </Button>
              <Button variant="secondary" onClick={start}>
                <Trans>Locate again</Trans>
              </Button>
            </>
          ) : (
            step.kind !== 'locating' &&
            !(step.kind === 'failed' && (step.why === 'unsupported' || step.why === 'insecure')) && (
              <Button onClick={start}>
                {step.kind === 'failed' ? <Trans>Try again</Trans> : <Trans>Use my current location</Trans>}
              </Button>
            )
          )}
        </section>
      </div>
    </div>
  );
}

function LocateFailureText({ why }: { why: LocateFailure }) {
  return (
    <p className="map-failure" role="alert">
      {why === 'unsupported' && i18n._(texts.h5NotSupported)}
      {why === 'insecure' && <Trans>Your position can only be read over a secure (https) connection.</Trans>}
      {why === 'denied' && (
        <Trans>
          Location permission was refused. Allow location for this site in your browser's settings, then try again.
        </Trans>
      )}
      {why === 'unavailable' && (
        <Trans>Your position could not be determined. Check that location is turned on, then try again.</Trans>
      )}
      {why === 'timeout' && <Trans>Finding your position took too long. Try again, outdoors if you can.</Trans>}
    </p>
  );
}
