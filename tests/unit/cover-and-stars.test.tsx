import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { GeneratedCover, coverDesign, coverSvg } from '../../src/web/components/ui/cover.js';
import { Stars } from '../../src/web/components/ui/stars.js';

/** Decision 0032: a generated cover is one image, a rating two elements. */
describe('generated cover as one image', () => {
  const html = (title: string, category = 'music') =>
    renderToStaticMarkup(createElement(GeneratedCover, { seed: 'c0ffee00-0000-4000-8000-000000000001', title, category }));

  it('is a single <img> with an SVG data URL, decorative, keeping its design key', () => {
    const out = html('Guitar for beginners');
    expect(out).toMatch(/^<img [^>]*\/>$/);
    expect(out).toContain('alt=""');
    expect(out).toContain('src="data:image/svg+xml,');
    expect(out).toContain('data-cover="generated"');
    expect(out).toMatch(/data-cover-key="hsl\(/);
    expect(out).not.toContain('<svg');
  });

  it('draws the same design as before: gradient, shapes, initial, the category icon', () => {
    const d = coverDesign('seed', 'Sourdough', 'cooking');
    const svg = coverSvg(d, 'cooking');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 320 180"')).toBe(true);
    expect(svg).toContain(`stop-color="${d.from}"`);
    expect(svg).toContain(`stop-color="${d.to}"`);
    expect(svg.match(/<(circle|rect) /g)!.length).toBe(d.shapes.length + 2); // + background, icon halo
    expect(svg).toContain('>S</text>');
    expect(svg).toMatch(/<svg x="\d+" y="\d+" width="64" height="64" viewBox="0 0 24 24"[^>]*><path d=/);
    // an unknown category gets the fallback icon, not an empty one
    expect(coverSvg(coverDesign('seed', 'X', 'nope'), 'nope')).toMatch(/viewBox="0 0 24 24"[^>]*><path /);
  });

  it('escapes a title that starts with markup', () => {
    for (const title of ['<script>', '&amp', '"quoted"', "'single'"]) {
      const svg = coverSvg(coverDesign('seed', title, 'arts'), 'arts');
      const text = svg.match(/<text [^>]*>(.*)<\/text>/)![1];
      expect(text).toMatch(/^&#\d+;$/);
    }
  });
});

describe('stars as two elements', () => {
  const html = (props: Parameters<typeof Stars>[0]) => renderToStaticMarkup(createElement(Stars, props));

  it('fills the rating share of the row, read out once', () => {
    const out = html({ value: 4.5, count: 12 });
    expect(out).toContain('role="img" aria-label="Rated 4.5 out of 5 from 12 reviews"');
    expect(out).toContain('class="stars-full absolute inset-y-0 left-0" style="width:90%"');
    expect(out).not.toContain('<svg');
    expect(out.match(/class="stars-/g)!.length).toBe(2);
  });

  it('draws no filled row without reviews', () => {
    const out = html({ value: 0, count: 0 });
    expect(out).toContain('aria-label="No reviews yet"');
    expect(out).not.toContain('stars-full');
  });
});
