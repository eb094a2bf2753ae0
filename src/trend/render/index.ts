import type { Trend } from '../schema.js';
import { renderTrendHtml, type TrendPageOptions } from './html.js';
import { renderTrendMarkdown } from './markdown.js';
import { renderTrendQuarantine } from './quarantine.js';

/** trend.json: the whole history, 2-space JSON. */
export function* renderTrendJson(trend: Trend): Generator<string> {
  yield `${JSON.stringify(trend, null, 2)}\n`;
}

/** Every trend format: its file and a pure renderer. Adding one = one file + one line here. */
export const TREND_FORMATS = {
  html: { file: 'trend.html', render: renderTrendHtml },
  md: { file: 'trend.md', render: renderTrendMarkdown },
  json: { file: 'trend.json', render: renderTrendJson },
  quarantine: { file: 'quarantine.txt', render: renderTrendQuarantine },
} satisfies Record<string, { file: string; render: (trend: Trend, o?: TrendPageOptions) => Iterable<string> }>;

export type TrendFormat = keyof typeof TREND_FORMATS;
export const TREND_FORMAT_NAMES = Object.keys(TREND_FORMATS) as TrendFormat[];
