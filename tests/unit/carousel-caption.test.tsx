// @vitest-environment jsdom
// A slide's words are its title, shown over its picture (ui/Carousel.tsx): a customer reading Hindi sees the Hindi
// titles the server answers, as text on the slide, not only as a picture's alternative text.
import { act } from 'react';
import { expect, it, vi } from 'vitest';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { Carousel } from '../../src/ui/Carousel.tsx';
import { mountPoint } from './helpers.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();

it("shows each slide's title in Hindi as text on the slide, its picture as decoration", () => {
  // A device asking for reduced motion: the slides do not advance by themselves.
  vi.stubGlobal('matchMedia', () => ({ matches: true }));
  // The demo's first two home slides as the server answers them in Hindi.
  const hindi = ['मिनटों में ऑप्शन ट्रेड करें', 'आपका धन, हर हलचल दर्ज'].map((title, i) => ({
    id: i + 1,
    image: `/slides/slide-${i + 1}.svg`,
    title,
  }));
  act(() =>
    view.root.render(
      <I18nProvider i18n={i18n}>
        <Carousel items={hindi} />
      </I18nProvider>,
    ),
  );
  const slides = [...view.container.querySelectorAll('.carousel-item')];
  // textContent: what is drawn, which a picture's alt is not.
  expect(slides.map((slide) => slide.textContent)).toEqual(['मिनटों में ऑप्शन ट्रेड करें', 'आपका धन, हर हलचल दर्ज']);
  expect(slides.map((slide) => slide.querySelector('img')?.getAttribute('alt'))).toEqual(['', '']);
  vi.unstubAllGlobals();
});
