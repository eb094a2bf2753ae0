// Drawing the label page: every string of the set, the run or the knowledge base goes in as text (el), never as HTML.
import { byId, el } from '../shared/dom.js';
import type { Figures, KbHit, LabelItem, LabelState, Progress, Rate } from './data.js';

const pct = (v: number | null): string => (v === null ? 'n/a' : `${(v * 100).toFixed(1)}%`);

/** `75.0% (95% CI 46.8–91.1%, 6 of 8)` */
export const rateText = (r: Rate): string => (r.value === null ? 'n/a (nothing labeled yet)' : `${pct(r.value)} (95% CI ${pct(r.low)}–${pct(r.high)}, ${r.successes} of ${r.n})`);

/** The header: where the labels go, and the notes. */
export function drawHeader(state: LabelState): void {
  byId('set-name').textContent = state.set.path;
  byId('where').textContent = `labels go into ${state.set.column} (expect = fallback for "should be refused"), ${state.set.format.toUpperCase()}; log ${state.set.log} · run ${state.run.path} (${state.run.target}, ${state.run.questions} questions)`;
  const notes = byId('notes');
  notes.replaceChildren(...state.notes.map((n) => el('li', n)));
  byId('kb-name').textContent = state.kb === null ? '(none: answer-eval label --kb FILE to search one)' : state.kb;
  (byId<HTMLInputElement>('kb-query')).disabled = state.kb === null;
}

export function drawProgress(p: Progress): void {
  byId('labeled').textContent = String(p.labeled);
  byId('todo').textContent = p.skipped > 0 ? `${p.todo} (${p.skipped} skipped)` : String(p.todo);
}

export function drawFigures(f: Figures): void {
  const node = byId('figures');
  node.textContent = f.problem !== undefined ? `figures: none (${f.problem})` : `top-1 accuracy ${rateText(f.top1Accuracy)} · answerable ${rateText(f.answerableAccuracy)}`;
  node.dataset['revision'] = f.revision;
}

/** A message that stays (a refused write): the page stops writing. */
export function drawBanner(text: string): void {
  const banner = byId('banner');
  banner.textContent = text;
  banner.hidden = false;
}

const fact = (text: string): HTMLSpanElement => el('span', text);

/** The question to label: its text, facts, ranked answers (a click picks one) and the actions. */
export function drawCard(item: LabelItem | undefined, done: string): void {
  const card = byId('card');
  if (item === undefined) {
    card.replaceChildren(el('p', done, 'muted'));
    card.dataset['id'] = '';
    return;
  }
  card.dataset['id'] = item.id;
  const meta = el('div', null, 'meta');
  meta.append(fact(`id ${item.id}`), fact(`line ${item.line}`), fact(`asked ${item.count} time${item.count === 1 ? '' : 's'}`), fact(`language ${item.language}`), fact(`run: ${item.outcome}`));
  if (item.expected !== undefined) meta.append(fact(`expects ${item.expected}`));
  const question = el('p', item.question);
  question.id = 'question';
  const list = el('ol', null, 'answers');
  for (const a of item.answers) {
    const li = el('li', null, a.pickable ? '' : 'off');
    li.dataset['sequence'] = String(a.sequence);
    li.dataset['rank'] = String(a.rank);
    const name = el('div');
    name.append(el('span', a.label ?? `#${a.sequence}`, 'name'), el('span', ` #${a.sequence}${a.category ? ` · ${a.category}` : ''}`, 'muted'));
    for (const f of a.flags) name.append(el('span', f, `flag ${f}`));
    li.append(el('span', a.rank <= 9 && a.pickable ? String(a.rank) : '', a.rank <= 9 && a.pickable ? 'key' : ''), el('span', a.score.toFixed(1), 'score'), name, el('div', a.text, 'text'));
    if (!a.pickable) li.title = 'the service refused (its floor answer): press R if it should have';
    list.append(li);
  }
  const actions = el('div', null, 'actions');
  for (const [act, key, label] of [['fallback', 'R', 'should be refused'], ['skip', 'S', 'skip'], ['undo', 'U', 'undo']] as const) {
    const button = el('button', `${key} · ${label}`);
    button.type = 'button';
    button.dataset['act'] = act;
    actions.append(button);
  }
  card.replaceChildren(meta, question, item.answers.length > 0 ? list : el('p', 'The service gave no answer: press R if it was right to refuse, or search the knowledge base.', 'muted'), actions);
}

/** The entries a search found; the `current` one is picked by Enter. */
export function drawHits(hits: readonly KbHit[], current: number): void {
  byId('kb-hits').replaceChildren(
    ...hits.map((h, i) => {
      const li = el('li', null, i === current ? 'current' : '');
      li.dataset['sequence'] = String(h.sequence);
      li.append(el('span', h.label ?? `#${h.sequence}`, 'name'), el('span', ` #${h.sequence}${h.category ? ` · ${h.category}` : ''} — `, 'muted'), el('span', h.text));
      return li;
    }),
  );
}
