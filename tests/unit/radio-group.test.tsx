// @vitest-environment jsdom
// A radio group as one Tab stop (ui/RadioGroup.tsx, the WAI-ARIA radio group pattern): only the checked radio (the
// first when none is) is reached with Tab; the arrow keys move through the group and check what they reach, wrapping
// at either end and following the reading direction in a right-to-left page; Home and End go to the first and last.
import { act, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { RadioGroup } from '../../src/ui/RadioGroup.tsx';
import { mountPoint } from './helpers.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();

/** Coins to choose from, with the clicks on each noted in `clicks`. */
function Coins({ coins, first = null, clicks = [] }: { coins: string[]; first?: string | null; clicks?: string[] }) {
  const [coin, setCoin] = useState(first);
  return (
    <>
      <button type="button">before</button>
      <RadioGroup label="Coin" className="coins">
        {coins.map((item) => (
          <button
            key={item}
            type="button"
            role="radio"
            aria-checked={item === coin}
            disabled={item === 'OFF'}
            onClick={() => {
              clicks.push(item);
              setCoin(item);
            }}
          >
            {item}
          </button>
        ))}
      </RadioGroup>
      <button type="button">after</button>
    </>
  );
}

const render = (element: React.ReactNode) => act(() => view.root.render(element));
const radios = () => [...view.container.querySelectorAll<HTMLElement>('[role="radio"]')];
/** Each radio's name with its tabIndex: which one Tab reaches. */
const tabStops = () => radios().map((radio) => `${radio.textContent}:${radio.tabIndex}`);
const checked = () => radios().find((radio) => radio.getAttribute('aria-checked') === 'true')?.textContent ?? null;
const focused = () => document.activeElement?.textContent;
const radio = (name: string) => radios().find((item) => item.textContent === name)!;

/** Presses `key` on the focused element; true when the group took it over (the browser's own action cancelled). */
function press(key: string, modifiers: KeyboardEventInit = {}): boolean {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...modifiers });
  act(() => void document.activeElement!.dispatchEvent(event));
  return event.defaultPrevented;
}

describe('a radio group', () => {
  it('is one Tab stop: the checked radio, or the first when none is checked', () => {
    render(<Coins coins={['BTC', 'ETH', 'SOL']} first="ETH" />);
    expect(tabStops()).toEqual(['BTC:-1', 'ETH:0', 'SOL:-1']);
    expect(view.container.querySelector('[role="radiogroup"]')?.getAttribute('aria-label')).toBe('Coin');

    render(<Coins key="none" coins={['BTC', 'ETH', 'SOL']} />);
    expect(tabStops()).toEqual(['BTC:0', 'ETH:-1', 'SOL:-1']);
    // A click (the pointer's way) moves the stop with the check.
    act(() => radio('SOL').click());
    expect(tabStops()).toEqual(['BTC:-1', 'ETH:-1', 'SOL:0']);
  });

  it('keeps one stop as radios arrive (a list that loaded)', () => {
    render(<Coins coins={[]} />);
    render(<Coins coins={['BTC', 'ETH']} />);
    expect(tabStops()).toEqual(['BTC:0', 'ETH:-1']);
  });

  it('moves and checks with Arrow Right and Down, back with Arrow Left and Up, wrapping at both ends', () => {
    const clicks: string[] = [];
    render(<Coins coins={['BTC', 'ETH', 'SOL']} first="BTC" clicks={clicks} />);
    radio('BTC').focus();
    expect(press('ArrowRight')).toBe(true);
    expect([focused(), checked()]).toEqual(['ETH', 'ETH']);
    expect(press('ArrowDown')).toBe(true);
    expect([focused(), checked()]).toEqual(['SOL', 'SOL']);
    press('ArrowRight');
    expect([focused(), checked()]).toEqual(['BTC', 'BTC']);
    expect(press('ArrowLeft')).toBe(true);
    expect([focused(), checked()]).toEqual(['SOL', 'SOL']);
    expect(press('ArrowUp')).toBe(true);
    expect([focused(), checked()]).toEqual(['ETH', 'ETH']);
    expect(tabStops()).toEqual(['BTC:-1', 'ETH:0', 'SOL:-1']);
    // Checking is a click on the radio, as a pointer would give.
    expect(clicks).toEqual(['ETH', 'SOL', 'BTC', 'SOL', 'ETH']);
  });

  it('goes to the first with Home and the last with End, and clicks no radio that is checked already', () => {
    const clicks: string[] = [];
    render(<Coins coins={['BTC', 'ETH', 'SOL']} first="ETH" clicks={clicks} />);
    radio('ETH').focus();
    expect(press('End')).toBe(true);
    expect([focused(), checked()]).toEqual(['SOL', 'SOL']);
    expect(press('Home')).toBe(true);
    expect([focused(), checked()]).toEqual(['BTC', 'BTC']);
    press('Home');
    expect(clicks).toEqual(['SOL', 'BTC']);
  });

  it('follows the reading direction in a right-to-left page: Arrow Right goes to the previous, Left to the next', () => {
    render(
      <div dir="rtl">
        <Coins coins={['BTC', 'ETH', 'SOL']} first="BTC" />
      </div>,
    );
    radio('BTC').focus();
    press('ArrowLeft');
    expect([focused(), checked()]).toEqual(['ETH', 'ETH']);
    press('ArrowRight');
    expect([focused(), checked()]).toEqual(['BTC', 'BTC']);
    press('ArrowRight');
    expect([focused(), checked()]).toEqual(['SOL', 'SOL']);
    // Up and Down do not depend on the direction.
    press('ArrowDown');
    expect([focused(), checked()]).toEqual(['BTC', 'BTC']);
    press('ArrowUp');
    expect([focused(), checked()]).toEqual(['SOL', 'SOL']);
  });

  it('passes over a disabled radio', () => {
    render(<Coins coins={['BTC', 'OFF', 'SOL']} first="BTC" />);
    radio('BTC').focus();
    press('ArrowRight');
    expect([focused(), checked()]).toEqual(['SOL', 'SOL']);
  });

  it('leaves other keys, and arrows with Alt, Ctrl or Meta, to the browser', () => {
    render(<Coins coins={['BTC', 'ETH']} first="BTC" />);
    radio('BTC').focus();
    for (const key of ['Tab', ' ', 'Enter', 'a', 'PageDown']) expect(press(key), key).toBe(false);
    expect(press('ArrowRight', { altKey: true })).toBe(false);
    expect(press('ArrowRight', { ctrlKey: true })).toBe(false);
    expect(press('ArrowRight', { metaKey: true })).toBe(false);
    expect([focused(), checked()]).toEqual(['BTC', 'BTC']);
  });
});
