import { escapeHtml as e } from '../../report/escape.js';
import { VERDICT_CSS, verdictBanner } from '../../report/verdict.js';
import type { Comparison, CoverageChange, EditedQuestion, QuestionChange, QuestionSide, SliceComparison } from '../schema.js';
import { interval, metricRows, mrrDeltaText, mrrText, pts, pValue, questionSets, score, scoreDelta, scopeNote, verdict } from './format.js';

const CSS = `
:root{color-scheme:light dark;--bad:#c62828;--good:#2e7d32;--muted:#777;--line:#8884}
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:1rem 1.5rem}
h1{font-size:1.4rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid var(--line)}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{border-bottom:1px solid var(--line);padding:.3rem .5rem;text-align:left;vertical-align:top}
th{font-weight:600}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.bad{color:var(--bad)}.good{color:var(--good)}.muted{color:var(--muted)}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:.75rem}.pair>div{border:1px solid var(--line);border-radius:6px;padding:.4rem .6rem}
.pair .lbl{font-size:.8rem;color:var(--muted)}.q{font-weight:600}
#filter{padding:.3rem .5rem;width:20rem;max-width:100%}
${VERDICT_CSS}.verdict{margin:8px 0}
`;

// Filters the question lists by id or text; no data is embedded, the page works without it too.
const JS = `
document.getElementById('filter').addEventListener('input', function (ev) {
  var needle = ev.target.value.toLowerCase();
  document.querySelectorAll('[data-q]').forEach(function (el) {
    el.hidden = needle !== '' && el.textContent.toLowerCase().indexOf(needle) < 0;
  });
});
`;

const side = (label: string, s: QuestionSide): string =>
  `<div><div class="lbl">${e(label)} · ${e(s.outcome)}${s.rank !== undefined && s.rank !== null ? ` · rank ${s.rank}` : ''}</div>${
    s.top1 === null
      ? `<div class="muted">${e(s.error ?? '(no answer)')}</div>`
      : `<div>${e(s.top1.answer)}</div><div class="muted">#${e(s.top1.sequence_number)}${s.top1.label ? ` · ${e(s.top1.label)}` : ''} · score ${e(score(s.top1.score))}</div>`
  }</div>`;

function questionSection(id: string, title: string, list: QuestionChange[], cls = ''): string {
  if (list.length === 0) return '';
  const rows = list
    .map(
      (q) =>
        `<tr data-q><td><span class="q">${e(q.id)}</span><div>${e(q.question)}</div>${q.tags.length ? `<div class="muted">${e(q.tags.join(', '))}</div>` : ''}${
          q.scoreDelta !== null ? `<div class="muted">top-1 score Δ ${e(scoreDelta(q.scoreDelta))}</div>` : ''
        }</td><td><div class="pair">${side('base', q.base)}${side('head', q.head)}</div></td></tr>`,
    )
    .join('\n');
  return `<section id="${id}"><h2 class="${cls}">${e(title)} (${list.length})</h2><table><thead><tr><th style="width:30%">question</th><th>top-1 answers, base and head</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

function coverageSection(id: string, title: string, list: CoverageChange[]): string {
  if (list.length === 0) return '';
  const rows = list.map((q) => `<tr data-q><td>${e(q.id)}</td><td>${e(q.question)}</td><td>${e(q.outcome)}</td></tr>`).join('\n');
  return `<section id="${id}"><h2>${e(title)} (${list.length})</h2><table><thead><tr><th>id</th><th>question</th><th>outcome</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

function editedSection(list: EditedQuestion[]): string {
  if (list.length === 0) return '';
  const was = (edited: boolean, before: string, after: string): string =>
    edited ? `<div class="muted">was: ${e(before)}</div><div>now: ${e(after)}</div>` : `<div>${e(after)}</div>`;
  const rows = list
    .map(
      (q) =>
        `<tr data-q><td>${e(q.id)}</td><td>${e(q.edits.join(', '))}</td><td>${was(q.edits.includes('question'), q.baseQuestion, q.question)}</td><td>${was(
          q.edits.includes('expectation'),
          q.expected.base,
          q.expected.head,
        )}</td><td>${e(q.base.outcome)} → ${e(q.head.outcome)}</td></tr>`,
    )
    .join('\n');
  return `<section id="changed"><h2>Changed questions: question or expectation edited, not compared (${list.length})</h2><table><thead><tr><th>id</th><th>edited</th><th>question</th><th>expected</th><th>outcome, base → head</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

function sliceSection(title: string, list: SliceComparison[]): string {
  if (list.length === 0) return '';
  const rows = list
    .map(
      (s) =>
        `<tr${s.pHolm < 0.05 ? ` class="${s.mcnemar.b > s.mcnemar.c ? 'bad' : 'good'}"` : ''}><td>${e(s.key)}</td><td class="n">${s.n}</td><td class="n">${s.mcnemar.b}</td><td class="n">${s.mcnemar.c}</td><td class="n">${e(
          pts(s.top1Accuracy.delta),
        )}</td><td class="n">${e(interval(s.top1Accuracy))}</td><td class="n">${e(mrrDeltaText(s.mrr))}</td><td class="n">${e(pValue(s.mcnemar.p))}</td><td class="n">${e(pValue(s.pHolm))}</td></tr>`,
    )
    .join('\n');
  return `<h3>By ${e(title)}</h3><table><thead><tr><th>${e(title)}</th><th class="n">n</th><th class="n">broken</th><th class="n">fixed</th><th class="n">accuracy Δ</th><th class="n">95% CI</th><th class="n">MRR Δ</th><th class="n">p</th><th class="n">p (Holm)</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** compare.html: one self-contained page (inline CSS and JS, no request), every string escaped. Broken questions first. */
export function renderCompareHtml(c: Comparison): string {
  const n = c.counts;
  const metrics = metricRows(c)
    .map(([label, b, h, d]) => `<tr><td>${e(label)}</td><td class="n">${e(b)}</td><td class="n">${e(h)}</td><td class="n">${e(d)}</td></tr>`)
    .join('');
  const mrr = mrrText(c);
  const note = scopeNote(c);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>answer-eval compare: ${e(c.base.file)} → ${e(c.head.file)}</title>
<style>${CSS}</style></head>
<body>
${c.gates ? `${verdictBanner(c.gates)}\n` : ''}<h1>answer-eval compare</h1>
<p>base <b>${e(c.base.file)}</b> (${e(c.base.startedAt)}, ${e(c.base.baseUrl)}) → head <b>${e(c.head.file)}</b> (${e(c.head.startedAt)}, ${e(c.head.baseUrl)}) · agent ${e(c.head.agent)} · dataset ${e(c.head.dataset.path)}</p>
${c.forced.map((f) => `<p class="bad">compared with --force: ${e(f)}</p>`).join('\n')}
<p>Questions: ${e(questionSets(c))}${note === null ? '' : `<br><span class="muted">${e(note)}</span>`}</p>
<p><span class="${n.broken ? 'bad' : ''}">${n.broken} broken</span> · <span class="${n.fixed ? 'good' : ''}">${n.fixed} fixed</span> · ${n.top1Changed} top-1 changed · ${n.drift} score drift · ${n.errors} with errors</p>
<p>${e(verdict(c))}.</p>
${mrr === null ? '' : `<p>${e(mrr)}.</p>`}
<p><input id="filter" type="search" placeholder="filter questions by id or text" aria-label="filter questions"></p>
${questionSection('broken', 'Broken: was correct, now is not', c.questions.broken, 'bad')}
${questionSection('fixed', 'Fixed: was not correct, now is', c.questions.fixed, 'good')}
<section id="stats"><h2>Metrics</h2>
<table><thead><tr><th>metric</th><th class="n">base</th><th class="n">head</th><th class="n">Δ</th></tr></thead><tbody>${metrics}</tbody></table>
<p class="muted">Paired statistics use the common questions (same id, question and expectation) labeled and error-free in both reports. Exact McNemar test on top-1 correctness; paired bootstrap ${c.options.resamples} resamples, seed ${c.options.seed}, ${c.options.confidence * 100}% percentile intervals; Holm correction across the slices of each breakdown.</p>
${sliceSection('tag', c.slices.tag)}
${sliceSection('category', c.slices.category)}
</section>
${questionSection('top1-changed', 'Top-1 changed, same correctness', c.questions.top1Changed)}
${questionSection('drift', 'Score drift (same top-1, score moved)', c.questions.drift)}
${coverageSection('added', 'Added questions (coverage, not a regression)', c.questions.added)}
${coverageSection('removed', 'Removed questions (coverage, not a regression)', c.questions.removed)}
${editedSection(c.questions.changed)}
${questionSection('errors', 'Errors on either side (not a regression)', c.questions.errors)}
<p class="muted">${e(c.tool.name)} ${e(c.tool.version)} · compare schema ${e(c.schemaVersion)}</p>
<script>${JS}</script>
</body></html>
`;
}
