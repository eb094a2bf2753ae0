import type { ChangeSource } from '../changes.js';
import type { Comparison } from '../schema.js';
import { renderCompareHtml, type ComparePageOptions } from './html/index.js';
import { renderCompareJson } from './json.js';
import { renderCompareMarkdown } from './markdown.js';

/**
 * Every compare format: its file name and a pure renderer yielding the file in chunks from the comparison and
 * every change (changes.jsonl itself is written as the comparison finds them). Adding one = one file + one line here.
 */
export const COMPARE_FORMATS = {
  json: { file: 'compare.json', render: (c: Comparison) => [renderCompareJson(c)] },
  html: { file: 'compare.html', render: (c: Comparison, changes: ChangeSource, o?: ComparePageOptions) => renderCompareHtml(c, changes, o) },
  md: { file: 'compare.md', render: (c: Comparison) => [renderCompareMarkdown(c)] },
} satisfies Record<string, { file: string; render: (c: Comparison, changes: ChangeSource, o?: ComparePageOptions) => Iterable<string> }>;

export type CompareFormat = keyof typeof COMPARE_FORMATS;
