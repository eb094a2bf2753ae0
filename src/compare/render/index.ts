import type { Comparison } from '../schema.js';
import { renderCompareHtml } from './html.js';
import { renderCompareJson } from './json.js';
import { renderCompareMarkdown } from './markdown.js';

/** Every compare format: its file name and a pure renderer. Adding one = one file + one line here. */
export const COMPARE_FORMATS = {
  json: { file: 'compare.json', render: renderCompareJson },
  html: { file: 'compare.html', render: renderCompareHtml },
  md: { file: 'compare.md', render: renderCompareMarkdown },
} satisfies Record<string, { file: string; render: (c: Comparison) => string }>;

export type CompareFormat = keyof typeof COMPARE_FORMATS;
