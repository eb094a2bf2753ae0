import { OUTCOME_CLASSES, OUTCOMES } from '../../model/outcome.js';
import { VERDICT_CSS } from '../verdict.js';

/** The page's CSS: system fonts only (no web font requests), light and dark. */
export const STYLES = `
:root{--bg:#f6f7f9;--fg:#1d2330;--muted:#667085;--card:#fff;--line:#e3e6ec;--ok:#2f9e63;--warn:#d9932b;--bad:#d64545;--accent:#3a6ff7;--miss:#8e5bd1;--err:#7a1f1f;--gray:#98a2b3}
@media (prefers-color-scheme:dark){:root{--bg:#14171d;--fg:#e6e8ee;--muted:#98a2b3;--card:#1d2129;--line:#2c323d}}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg)}
header{padding:18px 28px 8px}
header h1{margin:0;font-size:20px}
header .meta{color:var(--muted);font-size:12.5px;margin-top:4px;overflow-wrap:anywhere}
.banner{margin:8px 28px;padding:8px 12px;border-radius:6px;background:#fff3cd;color:#5c4400}
${VERDICT_CSS}
main{padding:0 28px 40px}
h2{font-size:16px;margin:26px 0 10px;border-bottom:1px solid var(--line);padding-bottom:4px}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(190px,1fr));gap:10px}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:10px 14px}
.card.wide{grid-column:span 2}
.card h3{margin:0 0 6px;font-size:12px;font-weight:600;color:var(--muted);text-transform:uppercase;letter-spacing:.03em}
.big{font-size:28px;font-weight:650}
.ci,.hint{color:var(--muted);font-size:12px}
ul.kv{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:4px 14px}
.bar{display:flex;height:12px;border-radius:6px;overflow:hidden;margin:4px 0 8px;background:var(--line)}
.seg{display:block;height:100%}
.badge{display:inline-block;padding:0 7px;border-radius:9px;font-size:12px;color:#fff;white-space:nowrap}
${OUTCOMES.map((o) => `.o-${o}{background:${OUTCOME_CLASSES[o].colour}}`).join('')}
.grid2{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:12px;align-items:start;margin-bottom:12px}
figure{margin:0;background:var(--card);border:1px solid var(--line);border-radius:8px;padding:10px 12px}
figcaption{font-weight:600;font-size:13px;margin-bottom:4px}
svg.chart{width:100%;height:auto;font-size:10.5px;fill:var(--fg)}
svg .axis line{stroke:var(--muted);stroke-width:.6}svg .grid{stroke:var(--line)!important}
svg .label{fill:var(--muted)}
svg .ok{fill:var(--ok)}svg .bad{fill:var(--bad)}svg .warn{fill:var(--warn)}svg .lat{fill:var(--accent)}
svg .mark{stroke:var(--fg);stroke-dasharray:4 3;fill:none;stroke-width:1.3}svg .mark-label{font-weight:600}
svg .curve{fill:none;stroke:var(--accent);stroke-width:2}svg .dot{fill:var(--accent)}
svg .whisker{stroke:var(--fg);stroke-width:1.4}
table{border-collapse:collapse;width:100%}
table.slices{background:var(--card);border:1px solid var(--line);border-radius:8px;font-size:13px}
caption{text-align:left;font-weight:600;padding:6px 0;font-size:13px}
th,td{text-align:left;padding:4px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:12px;color:var(--muted);font-weight:600;background:var(--card)}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
tr.filterable{cursor:pointer}tr.filterable:hover,tr.row:hover{background:rgba(58,111,247,.07)}
#q-controls{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin-bottom:8px}
#q-controls input,#q-controls select,#q-controls button{font:inherit;padding:4px 8px;border:1px solid var(--line);border-radius:6px;background:var(--card);color:var(--fg)}
#q-controls input{min-width:240px}
#table-status{color:var(--muted);margin:6px 0}
.qt-wrap{background:var(--card);border:1px solid var(--line);border-radius:8px;overflow:auto;max-height:78vh}
table.qt{font-size:13px;table-layout:fixed;min-width:980px}
table.qt thead th{position:sticky;top:0;z-index:1;cursor:pointer;user-select:none}
th[aria-sort=ascending]::after{content:" ▲"}th[aria-sort=descending]::after{content:" ▼"}
tr.row{cursor:pointer}tr.row.open{background:rgba(58,111,247,.1)}
td.question,td.expected,td.got{overflow:hidden;text-overflow:ellipsis}
td .answer{color:var(--muted);white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
td.id{font-family:ui-monospace,monospace;font-size:12px;word-break:break-all}
.label{font-weight:600;margin-right:4px}
.flag{display:inline-block;font-size:11px;padding:0 5px;margin-right:3px;border-radius:4px;background:var(--line)}
.f-floor,.f-dummy{background:#fde2c2;color:#6a3b00}
tr.detail>td{background:var(--bg);padding:10px 16px}
.meta{display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:2px 16px;margin-bottom:8px}
.meta .k{color:var(--muted);margin-right:6px}.meta .v{white-space:pre-wrap;word-break:break-word}
table.ranked{background:var(--card)}table.ranked td.answer{white-space:pre-wrap;color:var(--fg)}
tr.top1{font-weight:600}tr.match td:first-child{box-shadow:inset 3px 0 var(--ok)}
footer{color:var(--muted);font-size:12px;padding:0 28px 24px}
`;
