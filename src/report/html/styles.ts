import { OUTCOME_CLASSES, OUTCOMES } from '../../model/outcome.js';
import { VERDICT_BADGE_CSS } from '../conversations.js';
import { VERDICT_CSS } from '../verdict.js';

/**
 * The colours of every page (report.html, compare.html, trend.html), light and dark. Links hold a contrast of
 * at least 4.5 in both (checked in the browser tests of report.html and compare.html).
 */
const PALETTE = `:root{--bg:#f6f7f9;--fg:#1d2330;--muted:#5d6679;--card:#fff;--line:#e3e6ec;--ok:#2f9e63;--warn:#d9932b;--bad:#d64545;--good:#1f8a54;--accent:#3a6ff7;--miss:#8e5bd1;--err:#7a1f1f;--gray:#98a2b3;--link:#1f56c9;--link-visited:#6b3fb5;--shade:214,69,69;--hover:rgba(58,111,247,.08);color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#14171d;--fg:#e6e8ee;--muted:#a3acbd;--card:#1d2129;--line:#2f3642;--bad:#f07070;--good:#5fd097;--accent:#6f95ff;--link:#8fb3ff;--link-visited:#c6a6ff;--shade:240,96,96;--hover:rgba(111,149,255,.12)}}`;

/** What the CSS of report.html and compare.html (trend.html: report.html's) begins with: the colours, and two resets. */
export const BASE_STYLES = `${PALETTE}
*{box-sizing:border-box}
[hidden]{display:none!important}`;

/**
 * The page's CSS: system fonts only (no web font requests), light and dark. Also read by trend.html, so the shared
 * blocks (header, cards, grid2, tables, charts) keep their class names. Grids use `min(…, 100%)` so that nothing is
 * wider than a 390 px phone; wide tables scroll inside their own box (`.table-wrap`, `.qt-wrap`), never the page.
 */
export const STYLES = `
${BASE_STYLES}
html{scroll-padding-top:52px}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg);overflow-wrap:break-word}
a{color:var(--link)}a:visited{color:var(--link-visited)}
a.goto{cursor:pointer}
header{padding:18px 28px 8px;max-width:100%}
header h1{margin:0;font-size:20px;line-height:1.3;overflow-wrap:anywhere}
header .run-meta{display:flex;flex-wrap:wrap;gap:2px 14px;list-style:none;margin:6px 0 0;padding:0;color:var(--muted);font-size:12.5px}
header .run-meta li{overflow-wrap:anywhere;min-width:0}
.banner{margin:8px 28px;padding:8px 12px;border-radius:6px;background:#fff3cd;color:#5c4400}
${VERDICT_CSS}
nav.toc{position:sticky;top:0;z-index:5;display:flex;gap:4px;overflow-x:auto;padding:6px 28px;background:var(--bg);border-bottom:1px solid var(--line);white-space:nowrap}
nav.toc a{padding:4px 10px;border-radius:6px;text-decoration:none;color:var(--fg);font-size:13px}
nav.toc a:hover,nav.toc a:focus-visible{background:var(--hover)}
nav.toc a.attention{color:var(--link);font-weight:600}
main{padding:0 28px 40px}
main>section{margin-top:18px}
h2{font-size:16px;margin:18px 0 10px;border-bottom:1px solid var(--line);padding-bottom:4px}
h2 .hint{font-weight:400}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(190px,100%),1fr));gap:10px;margin-bottom:10px}
.cards.headline{grid-template-columns:repeat(auto-fit,minmax(min(200px,100%),1fr))}
@media (max-width:640px){.cards.headline{grid-template-columns:repeat(2,minmax(0,1fr))}.cards.headline .big{font-size:24px}.card{padding:8px 10px}}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:10px 14px;min-width:0}
.card.wide{grid-column:span 2}
@media (max-width:640px){.card.wide{grid-column:auto}header,main{padding-left:14px;padding-right:14px}nav.toc{padding:6px 14px}.banner,.verdict{margin-left:14px;margin-right:14px}}
.card h3{margin:0 0 6px;font-size:12px;font-weight:600;color:var(--muted);text-transform:uppercase;letter-spacing:.03em}
.big{font-size:28px;font-weight:650;line-height:1.2}
.ci,.hint{color:var(--muted);font-size:12px}
.figure .over{color:var(--muted);font-size:12px}
ul.kv{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:4px 14px}
.bar{display:flex;height:12px;border-radius:6px;overflow:hidden;margin:4px 0 8px;background:var(--line)}
.seg{display:block;height:100%}
.outcome-card{margin-bottom:10px}
.outcomes{display:grid;grid-template-columns:minmax(0,1fr) auto;gap:8px 18px;align-items:center}
@media (max-width:640px){.outcomes{grid-template-columns:minmax(0,1fr)}}
a.cta{display:inline-block;padding:8px 14px;border-radius:8px;background:#b3261e;color:#fff;font-weight:600;text-decoration:none;white-space:normal}
a.cta:visited{color:#fff}a.cta.calm{background:#1e7a4a}
a.cta:hover,a.cta:focus-visible{filter:brightness(1.08)}
.badge{display:inline-block;padding:0 7px;border-radius:9px;font-size:12px;color:#fff;white-space:nowrap}
${OUTCOMES.map((o) => `.o-${o}{background:${OUTCOME_CLASSES[o].colour}}`).join('')}
.grid2{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(420px,100%),1fr));gap:12px;align-items:start;margin-bottom:12px}
.grid2>*{min-width:0}
.grid2.tables{grid-template-columns:repeat(auto-fit,minmax(min(480px,100%),1fr))}
.grid-advice{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,2fr);gap:12px;align-items:start;margin-bottom:12px}
@media (max-width:900px){.grid-advice{grid-template-columns:minmax(0,1fr)}}
figure{margin:0;background:var(--card);border:1px solid var(--line);border-radius:8px;padding:10px 12px;min-width:0;overflow-x:auto}
figcaption{font-weight:600;font-size:13px;margin-bottom:4px}
svg.chart{display:block;width:100%;height:auto;margin:0 auto;font-size:10.5px;fill:var(--fg)}
svg .axis line{stroke:var(--muted);stroke-width:.6}svg .grid{stroke:var(--line)!important}
svg .label{fill:var(--muted)}
svg .ok{fill:var(--ok)}svg .bad{fill:var(--bad)}svg .warn{fill:var(--warn)}svg .lat{fill:var(--accent)}
svg .mark{stroke:var(--fg);stroke-dasharray:4 3;fill:none;stroke-width:1.3}svg .mark-label{font-weight:600;paint-order:stroke;stroke:var(--card);stroke-width:3px;stroke-linejoin:round}
svg .curve{fill:none;stroke:var(--accent);stroke-width:2}svg .dot{fill:var(--accent)}
svg .curve.oos{stroke:var(--miss)}svg .curve.objective{stroke:var(--fg);stroke-dasharray:2 2;stroke-width:1.5}
svg .key-accent{fill:var(--accent)}svg .key-oos{fill:var(--miss)}svg .key-objective{fill:var(--fg)}
svg .whisker{stroke:var(--fg);stroke-width:1.4}
svg .goto{cursor:pointer}svg .goto:hover rect,svg .goto:focus rect{opacity:.8}svg .goto:focus{outline:none}svg .goto:focus text{text-decoration:underline}
table{border-collapse:collapse;width:100%}
.table-wrap{overflow-x:auto;max-width:100%;background:var(--card);border:1px solid var(--line);border-radius:8px}
.table-wrap>table.slices{border:0}
table.slices{background:var(--card);border:1px solid var(--line);border-radius:8px;font-size:13px}
caption{text-align:left;font-weight:600;padding:6px 8px;font-size:13px}
p.list-head{font-size:13px;margin:16px 0 6px}
th,td{text-align:left;padding:4px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:12px;color:var(--muted);font-weight:600;background:var(--card)}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.filterable{cursor:pointer}tr.filterable:hover,tr.row:hover,tr.entry:hover{background:var(--hover)}
.controls,#q-controls{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin-bottom:8px}
.controls input,.controls select,.controls button,#q-controls input,#q-controls select,#q-controls button{font:inherit;padding:4px 8px;border:1px solid var(--line);border-radius:6px;background:var(--card);color:var(--fg);max-width:100%}
.controls input[type=search],#q-controls input{width:240px}
.chip-filter{display:inline-flex;align-items:center;gap:6px;padding:2px 4px 2px 10px;border-radius:12px;background:var(--hover);border:1px solid var(--accent);font-size:13px;max-width:100%;overflow-wrap:anywhere}
.chip-filter button{border:0!important;background:none!important;padding:0 6px!important;cursor:pointer}
#table-status,.status{color:var(--muted);margin:6px 0}
.qt-wrap{background:var(--card);border:1px solid var(--line);border-radius:8px;overflow:auto;max-height:78vh}
table.qt{font-size:13px;table-layout:fixed;min-width:980px}
table.qt thead th{position:sticky;top:0;z-index:1;cursor:pointer;user-select:none}
th[aria-sort=ascending]::after{content:" ▲"}th[aria-sort=descending]::after{content:" ▼"}
th[data-esort]{cursor:pointer;user-select:none;white-space:nowrap}
tr.row{cursor:pointer}tr.row.open{background:var(--hover)}
td.question,td.expected,td.got{overflow:hidden;text-overflow:ellipsis}
td .answer{color:var(--muted);white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
td.id{font-family:ui-monospace,monospace;font-size:12px;overflow-wrap:break-word;word-break:normal}
.label{font-weight:600;margin-right:4px}
.flag{display:inline-block;font-size:11px;padding:0 5px;margin-right:3px;border-radius:4px;background:var(--line)}
.f-floor,.f-dummy{background:#fde2c2;color:#6a3b00}
tr.detail>td,tr.entry-detail>td{background:var(--bg);padding:10px 16px}
.facts{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(260px,100%),1fr));gap:2px 16px;margin-bottom:8px}
.facts .k{color:var(--muted);margin-right:6px}.facts .v{white-space:pre-wrap;word-break:break-word}
table.ranked{background:var(--card)}table.ranked td.answer{white-space:pre-wrap;color:var(--fg)}
table.ranked td.answer .fields{color:var(--muted);font-size:12px;white-space:normal;margin-top:2px}
.reply-body{margin-top:8px}.reply-body summary{cursor:pointer;color:var(--muted)}.reply-body pre{white-space:pre-wrap;word-break:break-word;max-height:320px;overflow:auto;background:var(--card);padding:8px;border-radius:4px}
tr.top1{font-weight:600}tr.match td:first-child{box-shadow:inset 3px 0 var(--ok)}
.e-wrap{max-height:70vh;overflow:auto}
table.entries{min-width:900px;border:0}
table.entries thead th{position:sticky;top:0;z-index:1}
table.entries td.entry{max-width:300px}
table.entries td.entry .answer{max-width:280px}
td.entry a.goto{font-weight:600}
button.toggle{font:inherit;font-size:11px;width:20px;padding:0;margin-right:4px;border:1px solid var(--line);border-radius:4px;background:var(--card);color:var(--fg);cursor:pointer}
.entry-text{white-space:pre-wrap;background:var(--card);border:1px solid var(--line);border-radius:6px;padding:8px 10px;margin:0 0 8px}
.chips{display:flex;flex-wrap:wrap;gap:3px}
a.chip{display:inline-block;font-size:12px;padding:0 6px;border-radius:9px;background:var(--hover);text-decoration:none;white-space:nowrap;max-width:220px;overflow:hidden;text-overflow:ellipsis}
a.chip b{font-variant-numeric:tabular-nums}
.matrix-wrap{overflow-x:auto}
table.matrix{width:auto;font-size:12px;background:var(--card);border:1px solid var(--line)}
table.matrix th,table.matrix td{padding:3px 6px;text-align:center;border:1px solid var(--line)}
table.matrix th[scope=row]{text-align:left;white-space:nowrap;max-width:240px;overflow:hidden;text-overflow:ellipsis}
table.matrix td{min-width:30px;font-variant-numeric:tabular-nums;background:rgba(var(--shade),var(--a,0))}
table.matrix td.diag{background:var(--bg);color:var(--muted)}
table.matrix td a{color:var(--fg);text-decoration:none;display:block}
table.matrix .n{display:inline-block;min-width:18px;color:var(--muted);font-weight:400}
footer{color:var(--muted);font-size:12px;padding:0 28px 24px}
.page-links{margin:6px 0 0;font-size:13px}
a.example{white-space:nowrap}
.ranked-wrap{overflow-x:auto;max-width:100%}
@media (max-width:640px){
.qt-wrap{max-height:none;overflow:visible;background:none;border:0;border-radius:0}
#q-table,#q-table thead,#q-table tbody{display:block;min-width:0}
#q-table thead tr{display:flex;flex-wrap:wrap;gap:4px;margin-bottom:6px}
#q-table thead th{width:auto!important;position:static;border:1px solid var(--line);border-radius:12px;padding:1px 8px}
#q-table thead th:not([data-sort]){display:none}
#q-body tr.row{display:flex;flex-wrap:wrap;align-items:baseline;gap:0 10px;padding:8px 10px;margin-bottom:6px;background:var(--card);border:1px solid var(--line);border-radius:8px}
#q-body tr.row>td{border:0;padding:0;overflow:visible;min-width:0}
#q-body td.id{order:1;flex:1 1 auto;font-weight:600}#q-body td.outcome{order:2}
#q-body td.question,#q-body td.expected,#q-body td.got{flex:1 1 100%}
#q-body td.question{order:3;margin-top:2px}#q-body td.expected{order:4}#q-body td.got{order:5}
#q-body td.line,#q-body td.lang,#q-body td.score,#q-body td.latency{order:6;font-size:12px;color:var(--muted);text-align:left}
#q-body td[data-label]::before{content:attr(data-label) " ";color:var(--muted);font-size:12px}
#q-body td.latency::after{content:" ms"}
#q-body td .answer{white-space:normal;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical}
#q-body tr.detail,#q-body tr.detail>td{display:block}#q-body tr.detail>td{border:1px solid var(--line);border-radius:8px;margin:-4px 0 6px}
}
`;

/** The conversations' threads (a run with conversations only: the page adds it to STYLES then). */
export const CONVERSATION_STYLES = `
${VERDICT_BADGE_CSS}
.conv-figures .cards{grid-template-columns:repeat(auto-fit,minmax(min(200px,100%),1fr));margin:0}
.conv-card a.to-threads{display:inline-block;margin-top:4px;font-weight:600}
.threads{display:flex;flex-direction:column;gap:8px;margin-top:8px}
details.thread{background:var(--card);border:1px solid var(--line);border-left:4px solid var(--ok);border-radius:8px;min-width:0}
details.thread.v-failed-edge{border-left-color:var(--bad)}details.thread.v-error-edge{border-left-color:var(--err)}
details.thread>summary{display:block;cursor:pointer;padding:8px 12px;list-style:none}
details.thread>summary::-webkit-details-marker{display:none}
details.thread>summary:hover,details.thread>summary:focus-visible{background:var(--hover)}
.thread-head{display:flex;flex-wrap:wrap;align-items:baseline;gap:2px 10px;min-width:0}
.thread-head::before{content:"▸";color:var(--muted);width:10px}details[open]>summary .thread-head::before{content:"▾"}
.thread-id{font-family:ui-monospace,monospace;font-weight:600;overflow-wrap:anywhere;min-width:0}
.thread-head .hint{overflow-wrap:anywhere;min-width:0}
.thread-why{margin:2px 0 0 20px;font-size:13px;overflow-wrap:anywhere}
ol.turns{list-style:none;margin:0;padding:0 12px 10px;display:flex;flex-direction:column}
li.turn{border-top:1px solid var(--line);padding:8px 0 6px;min-width:0}
li.turn.decides{box-shadow:inset 3px 0 var(--bad);padding-left:10px}
.turn-head{display:flex;flex-wrap:wrap;gap:4px 8px;align-items:center;font-size:12.5px}
.turn-n{font-weight:600;color:var(--muted)}.decided{color:var(--bad);font-weight:600}
.turn-head a.goto{margin-left:auto;font-size:12px}
.bubble{margin:6px 0;padding:6px 10px;border-radius:10px;max-width:760px;min-width:0;overflow-wrap:anywhere}
.bubble .text{white-space:pre-wrap}
.bubble .who{display:flex;flex-wrap:wrap;gap:2px 6px;align-items:baseline;font-size:12px;color:var(--muted);margin-bottom:2px}
.bubble.user{background:var(--hover);border-top-left-radius:2px}
.bubble.reply{background:var(--bg);border:1px solid var(--line);border-top-right-radius:2px;margin-left:min(40px,8%)}
.bubble.reply .label{color:var(--fg)}
.bubble .post{margin-top:4px;font-size:12.5px}.bubble .post .k{color:var(--muted);margin-right:6px}
.turn-facts{display:flex;flex-direction:column;gap:2px;font-size:13px;margin-left:min(40px,8%)}
.turn-facts>div{display:flex;gap:8px;min-width:0}
.turn-facts .k{color:var(--muted);flex:0 0 64px}.turn-facts .v{white-space:pre-wrap;overflow-wrap:anywhere;min-width:0}
ul.checks{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:2px;min-width:0}
ul.checks li{display:flex;flex-wrap:wrap;gap:0 6px;overflow-wrap:anywhere;min-width:0}
ul.checks .mark{font-weight:700;width:12px}ul.checks li.pass .mark{color:var(--ok)}ul.checks li.fail .mark{color:var(--bad)}
@media (max-width:640px){.bubble.reply,.turn-facts{margin-left:0}ol.turns{padding:0 8px 8px}details.thread>summary{padding:8px}}
`;
