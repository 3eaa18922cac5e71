// The map pages' rules: reading coordinates from a link, and the maps site they open on
// (OpenStreetMap: no key, no tracking script in our pages; the site itself does the drawing).

export interface Coordinates {
  lat: number;
  lng: number;
}

/** Decimal degrees with at most 8 decimals: "13.7563", "-0.5", "100". */
const DEGREES = /^[+-]?\d{1,3}(\.\d{1,8})?$/;

/** The place a link names, or null when it is not a valid latitude (±90) and longitude (±180). */
export function parseCoordinates(lat: string | null, lng: string | null): Coordinates | null {
  if (!lat || !lng || !DEGREES.test(lat.trim()) || !DEGREES.test(lng.trim())) return null;
  const place = { lat: Number(lat), lng: Number(lng) };
  return Math.abs(place.lat) <= 90 && Math.abs(place.lng) <= 180 ? place : null;
}

/** 6 decimals: about 10 cm, more than any phone's fix. */
export const formatDegrees = (value: number) => value.toFixed(6);

/** The place on openstreetmap.org, with a marker. */
export const mapLink = ({ lat, lng }: Coordinates) => {
  const [a, b] = [formatDegrees(lat), formatDegrees(lng)];
  return `https://www.openstreetmap.org/?mlat=${a}&mlon=${b}#map=17/${a}/${b}`;
};

/** Directions to the place on openstreetmap.org (from wherever the user is, chosen there). */
export const directionsLink = ({ lat, lng }: Coordinates) =>
  `https://www.openstreetmap.org/directions?to=${formatDegrees(lat)}%2C${formatDegrees(lng)}`;

/** The open-location route for a place. */
export const openLocationQuery = (place: Coordinates, name: string) =>
  `lat=${formatDegrees(place.lat)}&lng=${formatDegrees(place.lng)}${name ? `&name=${encodeURIComponent(name)}` : ''}`;

export type LocateFailure = 'unsupported' | 'insecure' | 'denied' | 'unavailable' | 'timeout';

/** Why the Geolocation API gave no position, from its error code (1 denied, 2 unavailable, 3 timeout). */
export const failureOf = (code: number): LocateFailure =>
  code === 1 ? 'denied' : code === 3 ? 'timeout' : 'unavailable';
