// Slides that advance every 3000 ms (SWIPER_INTERVAL_MS) and follow a swipe (native scroll snapping). A device that
// asks for reduced motion gets no advance of its own: the slides move when the user moves them. The track takes the
// keyboard's focus, so its arrow keys scroll it too. A slide's words are its title, drawn over its picture: the server
// answers the title in the customer's language (English where that language has no version), which words inside a
// picture could not follow, so slide pictures carry none.
import { useEffect, useRef, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { SWIPER_INTERVAL_MS } from '../api-contract/constants.ts';

/** A slide as the carousel shows it: its picture (decoration, no words) and its title (the words shown over it). */
export interface CarouselItem {
  id: number;
  image: string;
  title: string;
}

/**
 * Starts the first slide's download as soon as the slides are known, ahead of the render that shows
 * them: where a carousel leads a page, its first slide is the largest thing on it. The slide's
 * <img> then takes the same download.
 */
export function preloadFirstSlide(items: readonly CarouselItem[]): void {
  const first = items[0];
  if (!first || typeof Image === 'undefined') return;
  const picture = new Image();
  picture.fetchPriority = 'high';
  picture.src = first.image;
}

export function Carousel({ items }: { items: readonly CarouselItem[] }) {
  const { t } = useLingui();
  const track = useRef<HTMLDivElement>(null);
  const [index, setIndex] = useState(0);

  useEffect(() => {
    if (items.length < 2 || matchMedia('(prefers-reduced-motion: reduce)').matches) return;
    const timer = setInterval(() => {
      const element = track.current;
      if (!element) return;
      const next = (index + 1) % items.length;
      const direction = getComputedStyle(element).direction === 'rtl' ? -1 : 1;
      element.scrollTo({ left: direction * next * element.clientWidth, behavior: 'smooth' });
    }, SWIPER_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [index, items.length]);

  const onScroll = () => {
    const element = track.current;
    if (element) setIndex(Math.round(Math.abs(element.scrollLeft) / element.clientWidth));
  };

  return (
    <div className="carousel">
      <div
        className="carousel-track"
        ref={track}
        onScroll={onScroll}
        tabIndex={0}
        role="region"
        aria-roledescription="carousel"
        aria-label={t`Slides`}
      >
        {items.map((item, i) => (
          <figure key={item.id} className="carousel-item">
            {/* The first slide is the largest thing on home at load: fetched at once, ahead of the others. The
                picture is decoration: the slide's words are its title, the caption. */}
            <img
              src={item.image}
              alt=""
              className="carousel-slide"
              width={750}
              height={300}
              loading={i === 0 ? 'eager' : 'lazy'}
              fetchPriority={i === 0 ? 'high' : 'low'}
            />
            <figcaption className="carousel-caption">{item.title}</figcaption>
          </figure>
        ))}
      </div>
      <div className="carousel-dots" aria-hidden="true">
        {items.map((item, i) => (
          <span key={item.id} className={i === index ? 'active' : ''} />
        ))}
      </div>
    </div>
  );
}
