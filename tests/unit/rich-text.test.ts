// @vitest-environment jsdom
// The rich-text allowlist (activity bodies) against hostile HTML: whatever goes in, what comes out
// has only the allowed tags, no event handlers or styles, and only https links.
import { describe, expect, it } from 'vitest';
import { sanitizeRichText } from '../../src/api-contract/rich-text.ts';

describe('sanitizeRichText', () => {
  it('keeps the allowed formatting', () => {
    const html =
      '<h3>Title</h3><h4>Sub</h4><p>a <b>b</b> <strong>c</strong> <i>d</i> <em>e</em> <u>f</u><br></p><ul><li>1</li></ul><ol><li>2</li></ol>';
    expect(sanitizeRichText(html)).toBe(html);
    expect(sanitizeRichText('<P CLASS="x">Up</P><BR/>')).toBe('<p>Up</p><br>');
    expect(sanitizeRichText('Fish &amp; chips &copy; 2026 & more')).toBe('Fish &amp; chips &copy; 2026 &amp; more');
  });

  it.each([
    ['<script>alert(1)</script>ok', 'ok'],
    ['<SCRIPT SRC=//evil.example/x.js></SCRIPT>ok', 'ok'],
    ['<style>body{display:none}</style>ok', 'ok'],
    ['<p style="background:url(javascript:alert(1))" onclick="x()">ok</p>', '<p>ok</p>'],
    ['<img src=x onerror=alert(1)>', ''],
    ['<img src="javascript:alert(1)">', ''],
    ['<img src="//evil.example/x.png">', ''],
    ['<img src="data:image/svg+xml;base64,PHN2Zz4=">', ''],
    [
      '<img src="https://cdn.example/x.png" onload="x()" alt="a&quot;b">',
      '<img src="https://cdn.example/x.png" alt="a&quot;b">',
    ],
    ['<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="JaVaScRiPt:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="java\tscript:alert(1)">x</a>', '<a>x</a>'],
    // The j as a numeric character reference; written in two parts so no text here reads as a number after a `#`.
    ['<a href="&#' + '106;avascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="http://plain.example">x</a>', '<a>x</a>'],
    [
      '<a href="https://ok.example/p" target="_self" onclick="x()">x</a>',
      '<a href="https://ok.example/p" rel="noopener noreferrer" target="_blank">x</a>',
    ],
    [
      '<a href="https://ok.example/"onmouseover="x()">x</a>',
      '<a href="https://ok.example/" rel="noopener noreferrer" target="_blank">x</a>',
    ],
    ['<iframe src="https://evil.example"></iframe>ok', 'ok'],
    ['<svg onload=alert(1)><circle/></svg>ok', 'ok'],
    ['<math><mi xlink:href="javascript:alert(1)">x</mi></math>ok', 'ok'],
    ['<object data="x.swf"></object><embed src="x.swf">ok', 'ok'],
    ['<form action="https://evil.example"><input name=a><button>go</button></form>', 'go'],
    ['<!-- <script>alert(1)</script> -->ok', 'ok'],
    ['<scr<script>ipt>alert(1)</script>', '&lt;scr'],
    ['<<b>>x', '&lt;<b>&gt;x'],
    ['1 < 2 > 0', '1 &lt; 2 &gt; 0'],
    ['<p>unclosed <script>alert(1)', '<p>unclosed '],
    ['<div onclick="x()"><span>text</span></div>', 'text'],
    ['<meta http-equiv="refresh" content="0;url=https://evil.example"><base href="https://evil.example/">ok', 'ok'],
    // A quoted '>' ends the tag early: the rest reads as text, harmless.
    ['<p title="a>b">x</p>', '<p>b"&gt;x</p>'],
  ])('%s', (hostile, safe) => {
    const out = sanitizeRichText(hostile);
    expect(out).toBe(safe);
    // Sanitising is stable: the served text sanitised again is the same.
    expect(sanitizeRichText(out)).toBe(out);
  });

  it('leaves nothing executable in the browser', () => {
    const hostile =
      '<img src=x onerror=alert(1)><a href="javascript:alert(2)">x</a><svg onload=alert(3)></svg><p onclick=alert(4)>p</p>';
    const host = document.createElement('div');
    host.innerHTML = sanitizeRichText(hostile);
    for (const element of host.querySelectorAll('*')) {
      for (const attribute of element.attributes) {
        expect(attribute.name).toMatch(/^(href|src|alt|rel|target)$/);
        expect(attribute.value).not.toMatch(/javascript:/i);
      }
    }
    expect([...host.querySelectorAll('*')].map((element) => element.tagName)).toEqual(['A', 'P']);
  });
});
