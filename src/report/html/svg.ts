import type { ScaleLinear } from 'd3-scale';
import { escapeHtml as h } from '../escape.js';

/** The plotting area of a chart, inside its margins. */
export interface Frame {
  width: number;
  height: number;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export const frame = (width: number, height: number, left = 44, bottom = 30, top = 12, right = 14): Frame => ({ width, height, left, top, right: width - right, bottom: height - bottom });

/** How much wider than its own units a chart is drawn at most: its 10.5-unit text stays under 13 px on a wide screen. */
const MAX_SCALE = 1.2;

/** An `<svg>` scaling to its container (up to MAX_SCALE), with a title read by screen readers and shown on hover. */
export const svg = (f: Frame, title: string, body: string): string =>
  `<svg class="chart" viewBox="0 0 ${f.width} ${f.height}" style="max-width:${Math.round(f.width * MAX_SCALE)}px" role="img" aria-label="${h(title)}" xmlns="http://www.w3.org/2000/svg"><title>${h(title)}</title>${body}</svg>`;

const r1 = (v: number): number => Math.round(v * 10) / 10;

/** A bottom axis with d3's ticks for the scale, and its label. */
export function axisBottom(f: Frame, x: ScaleLinear<number, number>, label: string, format: (v: number) => string, count = 6): string {
  const ticks = x.ticks(count).map((t) => `<line x1="${r1(x(t))}" x2="${r1(x(t))}" y1="${f.bottom}" y2="${f.bottom + 4}"/><text x="${r1(x(t))}" y="${f.bottom + 15}" text-anchor="middle">${h(format(t))}</text>`);
  return `<g class="axis"><line x1="${f.left}" x2="${f.right}" y1="${f.bottom}" y2="${f.bottom}"/>${ticks.join('')}<text class="label" x="${f.right}" y="${f.height - 2}" text-anchor="end">${h(label)}</text></g>`;
}

/** A left axis with horizontal grid lines at d3's ticks. */
export function axisLeft(f: Frame, y: ScaleLinear<number, number>, format: (v: number) => string, count = 4): string {
  const ticks = y.ticks(count).map((t) => `<line class="grid" x1="${f.left}" x2="${f.right}" y1="${r1(y(t))}" y2="${r1(y(t))}"/><text x="${f.left - 5}" y="${r1(y(t)) + 3}" text-anchor="end">${h(format(t))}</text>`);
  return `<g class="axis">${ticks.join('')}</g>`;
}

export const rect = (x: number, y: number, w: number, height: number, cls: string, tip: string): string =>
  `<rect class="${cls}" x="${r1(x)}" y="${r1(y)}" width="${r1(Math.max(0, w))}" height="${r1(Math.max(0, height))}"><title>${h(tip)}</title></rect>`;

export const legend = (x: number, y: number, items: [cls: string, label: string][]): string =>
  items.map(([cls, label], k) => `<rect class="${cls}" x="${x}" y="${y + k * 14}" width="10" height="10"/><text x="${x + 14}" y="${y + k * 14 + 9}">${h(label)}</text>`).join('');

export { r1 };
