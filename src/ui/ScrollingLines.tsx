// Lines that take turns in one row, each sliding up after the other (a notice ticker). No
// product logic: the page hands in the lines. A device that asks for reduced motion gets no ticker: every line, one
// under the other, standing still.
import { useEffect, useState, type ReactNode } from 'react';
import { useReducedMotion } from '../lib/motion.ts';
import './scrolling-lines.css';

interface ScrollingLinesProps {
  lines: readonly { key: string | number; content: ReactNode }[];
  /** Shown before the lines (an icon, a label). */
  lead?: ReactNode;
  label: string;
  /** Milliseconds each line stays. */
  every?: number;
}

export function ScrollingLines({ lines, lead, label, every = 3000 }: ScrollingLinesProps) {
  const [turn, setTurn] = useState(0);
  const still = useReducedMotion();
  useEffect(() => {
    if (lines.length < 2 || still) return;
    const timer = setInterval(() => setTurn((current) => current + 1), every);
    return () => clearInterval(timer);
  }, [lines.length, every, still]);
  if (!lines.length) return null;
  if (still)
    return (
      <section className="scrolling-lines" aria-label={label}>
        {lead && <span className="scrolling-lines-lead">{lead}</span>}
        <ul className="scrolling-lines-all">
          {lines.map((item) => (
            <li key={item.key}>{item.content}</li>
          ))}
        </ul>
      </section>
    );
  const line = lines[turn % lines.length]!;
  return (
    <section className="scrolling-lines" aria-label={label}>
      {lead && <span className="scrolling-lines-lead">{lead}</span>}
      <span className="scrolling-lines-window">
        <span key={`${line.key}:${turn}`} className="scrolling-lines-line">
          {line.content}
        </span>
      </span>
    </section>
  );
}
