import { addOption, byId } from '../shared/dom.js';
import { fillSelect } from '../shared/table.js';
import { R } from './data.js';
import type { PageView } from './view.js';

/** The question table's filter controls, filled from the page data. */
export interface QuestionControls {
  outcome: HTMLSelectElement;
  language: HTMLSelectElement;
  tag: HTMLSelectElement;
  category: HTMLSelectElement;
  search: HTMLInputElement;
}

const sorted = (values: readonly string[]): [string, string][] => [...values].sort().map((v) => [v, v]);

/**
 * Fills the filters: the outcome select with how many questions each outcome has (`failing` first: failures and
 * errors), languages, tags and categories in alphabetical order. Returns them and how many questions fail.
 */
export function questionControls(view: PageView): { controls: QuestionControls; failing: number } {
  const { data, rows } = view;
  const counts: Record<string, number> = {};
  for (const r of rows) {
    const o = data.outcomes[r[R.outcome]]!;
    counts[o] = (counts[o] ?? 0) + 1;
  }
  const outcome = byId<HTMLSelectElement>('f-outcome');
  const failing = data.attention.reduce((n, o) => n + (counts[o] ?? 0), 0);
  addOption(outcome, 'failing', `failing (${failing})`);
  outcome.title = `failing: ${data.attention.map((o) => data.outcomeLabels[data.outcomes.indexOf(o)]).join(', ')}`;
  addOption(outcome, '', `all outcomes (${rows.length})`);
  data.outcomes.forEach((o, k) => { if (counts[o]) addOption(outcome, o, `${data.outcomeLabels[k]} (${counts[o]})`); });
  return {
    failing,
    controls: {
      outcome,
      language: fillSelect(byId('f-language'), 'all languages', sorted(data.languages)),
      tag: fillSelect(byId('f-tag'), 'all tags', sorted(data.tags)),
      category: fillSelect(byId('f-category'), 'all categories', sorted(data.categories)),
      search: byId<HTMLInputElement>('f-search'),
    },
  };
}
