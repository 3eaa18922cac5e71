// Lines that take turns in one row, each sliding up after the other (a notice ticker). No
// product logic: the page hands in the lines. With reduced motion they change without sliding.
import { useEffect, useState, type ReactNode } from 'react';
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
  useEffect(() => {
    if (lines.length < 2) return;
    const timer = setInterval(() => setTurn((current) => current + 1), every);
    return () => clearInterval(timer);
  }, [lines.length, every]);
  if (!lines.length) return null;
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
