import { allSlices, type Dimension, type SliceView } from '../insights.js';
import { escapeHtml as h } from '../escape.js';
import type { Metrics } from '../../model/metrics.js';
import { needsAttention, OUTCOMES } from '../../model/outcome.js';
import type { ScoredData } from '../../model/source.js';
import type { QuestionFilter } from '../../pages/report/data.js';

/** What every section of report.html reads: the report's head, computed once. */
export interface PageContext {
  report: ScoredData['head'];
  metrics: Metrics;
  slices: Record<Dimension, SliceView[]>;
  /** Questions the table opens on: failures and errors. */
  attention: number;
}

export function pageContext(data: ScoredData): PageContext {
  const report = data.head;
  const attention = OUTCOMES.filter(needsAttention).reduce((n, o) => n + report.summary.outcomes[o], 0);
  return { report, metrics: report.metrics, slices: allSlices(data), attention };
}

export type { QuestionFilter } from '../../pages/report/data.js';

/** The `data-*` attributes of a link to questions: `class="goto"` must be on the same element. */
export const gotoAttrs = (f: QuestionFilter): string =>
  Object.entries(f).filter(([, v]) => v !== undefined).map(([k, v]) => ` data-${k}="${h(v)}"`).join('');

/** A link that filters the question table and scrolls to it (it works as an anchor with JavaScript off). */
export const gotoLink = (f: QuestionFilter, text: string, cls = '', title = ''): string =>
  `<a href="#questions" class="goto${cls ? ` ${cls}` : ''}"${gotoAttrs(f)}${title ? ` title="${h(title)}"` : ''}>${text}</a>`;
