// Home: the slides and the scrolling notice, kept from the last visit so home never starts blank.
import { config, slides, type Slide } from '../../contract/content.ts';
import { api } from '../../lib/api.ts';
import { persistedStore } from '../../lib/storage.ts';

export const home = persistedStore('home', { slides: [] as Slide[], notice: '' });

export async function loadHome(): Promise<void> {
  const [slideList, system] = await Promise.all([
    api(slides, { position: 'home' }, { loading: home.slides.length === 0 }),
    api(config, { act: 'system' }, { loading: false }),
  ]);
  home.slides = slideList.lists;
  home.notice = system.scroll_notice ?? '';
}
