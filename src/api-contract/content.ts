// Public content calls: system config and slides.
import * as v from 'valibot';
import { get, returns } from './endpoint.ts';
import { texts } from './texts.ts';
import { Paged } from './envelope.ts';
import { shape, whole } from './answers.ts';

/** System config; `act` picks the group (system, share or about). */
export interface SystemConfig {
  scroll_notice: string;
  service_url: string;
  appurl_android: string;
}
export interface ShareConfig {
  text: string;
}
export interface AboutConfig {
  title: string;
  text: string;
}
export interface ConfigByAct {
  system: SystemConfig;
  share: ShareConfig;
  about: AboutConfig;
}
export const CONFIG_ACTS = ['system', 'share', 'about'] as const;
export const config = get(
  '/other/config',
  v.object({ act: v.picklist(CONFIG_ACTS, texts.invalidRequest.id) }),
  returns(v.record(v.string(), v.string())),
  {
    cache: 'public',
    auth: false,
  },
);

export const Slide = shape({
  id: whole,
  title: v.string(),
  image: v.string(),
  link: v.string(),
});
export type Slide = v.InferOutput<typeof Slide>;
export const SLIDE_POSITIONS = ['home', 'user1'] as const;
export const slides = get(
  '/content/slide',
  v.object({ position: v.picklist(SLIDE_POSITIONS, texts.invalidRequest.id) }),
  returns(Paged(Slide)),
  { cache: 'public', auth: false },
);
