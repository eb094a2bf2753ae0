import { scoreText } from '../shared/data.js';
import { el, fact } from '../shared/dom.js';
import { A, R, T } from './data.js';
import { decided, turnOf, type Thread } from './thread-list.js';
import { entryName, type PageView } from './view.js';

/** What the reply held: the top-1 (entry, number, score, flags, text) and the post-processed answer. */
function reply(view: PageView, i: number): HTMLDivElement {
  const r = view.rows[i]!;
  const box = el('div', null, 'bubble reply');
  const top = view.topOf(i);
  if (top) {
    const [a, score] = top;
    const who = el('div', null, 'who');
    who.append(el('span', 'top-1'), el('span', entryName(a), 'label'), el('span', `#${a[A.seq]} · score ${scoreText(score, view.scored(i))}`, 'hint'));
    for (const f of view.flagsOf(a)) who.append(el('span', f, `flag f-${f}`));
    box.append(who, el('div', a[A.text], 'text'));
  } else box.append(el('div', r[R.error] ?? (view.outcomeOf(i) === 'skipped' ? 'not asked' : 'no answer (empty list)'), 'text hint'));
  const post = turnOf(view, i)[T.post];
  if (post !== null) box.append(fact('post-processed answer', post, 'post'));
  return box;
}

/** Under the bubbles: what the turn expected, its checks, and why it did not pass. */
function turnFacts(view: PageView, i: number): HTMLDivElement {
  const r = view.rows[i]!;
  const facts = el('div', null, 'turn-facts');
  facts.append(fact('expected', r[R.expected] || '(nothing: unlabeled)'));
  const checks = turnOf(view, i)[T.checks];
  if (checks.length > 0) {
    const list = el('ul', null, 'checks');
    for (const [noun, expected, actual, passed] of checks) {
      const c = el('li', null, passed === null ? 'unjudged' : passed ? 'pass' : 'fail');
      c.append(el('span', passed === null ? '–' : passed ? '✓' : '✗', 'mark'), el('span', `${noun}: ${expected}`), el('span', passed === null ? 'no reply' : `got ${actual ?? 'none'}`, 'hint'));
      list.append(c);
    }
    facts.append(fact('checks', list));
  }
  const [why, error] = [r[R.why], r[R.error]];
  if (why !== null) facts.append(fact('why', why, 'why'));
  if (error !== null) facts.append(fact('error', error, 'why'));
  return facts;
}

/** A turn of a thread: its number and outcome, a link to it in the question table, what the user asked, the reply, the facts. */
function turnItem(view: PageView, i: number, t: Thread): HTMLLIElement {
  const r = view.rows[i]!;
  const n = turnOf(view, i)[T.turn];
  const li = el('li', null, `turn${n === t.at ? ' decides' : ''}`);
  const head = el('div', null, 'turn-head');
  head.append(el('span', `turn ${n}`, 'turn-n'), el('span', view.outcomeLabelOf(i), `badge o-${view.outcomeOf(i)}`));
  if (n === t.at) head.append(el('span', `decided the verdict`, 'decided'));
  const link = el('a', 'in the table', 'goto');
  link.href = '#questions';
  link.dataset['id'] = r[R.id];
  head.append(link);
  const asked = el('div', null, 'bubble user');
  asked.append(el('span', 'user', 'who'), el('div', r[R.question], 'text'));
  li.append(head, asked, reply(view, i), turnFacts(view, i));
  return li;
}

/** A conversation as a folding thread: verdict, id, turns, user and tags, what decided it; then its turns. */
export function threadNode(view: PageView, t: Thread, open: boolean): HTMLDetailsElement {
  const d = el('details', null, `thread v-${t.verdict}-edge`);
  d.open = open;
  const summary = el('summary');
  const line = el('div', null, 'thread-head');
  line.append(el('span', t.verdict, `badge v-${t.verdict}`), el('span', t.id, 'thread-id'));
  const tags = view.rows[t.rows[0]!]![R.tags].map((x) => view.data.tags[x]!);
  line.append(el('span', [`${t.rows.length} turn${t.rows.length === 1 ? '' : 's'}`, t.user, ...tags].join(' · '), 'hint'));
  summary.append(line, el('div', decided(view, t), `thread-why${t.failing ? '' : ' hint'}`));
  const list = el('ol', null, 'turns');
  for (const i of t.rows) list.append(turnItem(view, i, t));
  d.append(summary, list);
  return d;
}
