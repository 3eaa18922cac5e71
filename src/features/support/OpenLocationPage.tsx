// Open location (/pages/map/openLocation): the place given as `?lat=&lng=&name=`, its coordinates, and
// links to see it and get directions on openstreetmap.org. Invalid coordinates are refused.
import { useSearch } from 'wouter';
import { Trans } from '@lingui/react/macro';
import { ExternalIcon, MapPinIcon } from '../../ui/icons.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { Ltr } from '../../ui/records.tsx';
import { directionsLink, formatDegrees, mapLink, parseCoordinates } from './map.ts';
import './support.css';

export default function OpenLocationPage() {
  const query = new URLSearchParams(useSearch());
  const place = parseCoordinates(query.get('lat'), query.get('lng'));
  const name = (query.get('name') ?? '').trim();
  return (
    <div className="page support-page">
      <NavBar title={<Trans>Location</Trans>} />
      <div className="page-body">
        {place ? (
          <section className="card map-place">
            <MapPinIcon />
            {name && <h2>{name}</h2>}
            <dl className="map-coords">
              <div>
                <dt>
                  <Trans>Latitude</Trans>
                </dt>
                <dd>
                  <Ltr>{formatDegrees(place.lat)}</Ltr>
                </dd>
              </div>
              <div>
                <dt>
                  <Trans>Longitude</Trans>
                </dt>
                <dd>
                  <Ltr>{formatDegrees(place.lng)}</Ltr>
                </dd>
              </div>
            </dl>
            <a className="btn" href={mapLink(place)} target="_blank" rel="noopener noreferrer">
              <Trans>Show on OpenStreetMap</Trans>
              <ExternalIcon />
            </a>
            <a className="btn secondary" href={directionsLink(place)} target="_blank" rel="noopener noreferrer">
              <Trans>Directions</Trans>
              <ExternalIcon />
            </a>
          </section>
        ) : (
          <section className="card webview-refused" role="alert">
            <h2>
              <Trans>These coordinates are not valid</Trans>
            </h2>
            <p>
              <Trans>
                A place needs a latitude between -90 and 90 and a longitude between -180 and 180, in decimal degrees.
              </Trans>
            </p>
          </section>
        )}
      </div>
    </div>
  );
}
