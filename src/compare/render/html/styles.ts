import { OUTCOME_CLASSES, OUTCOMES } from '../../../model/outcome.js';
import { VERDICT_BADGE_CSS } from '../../../report/conversations.js';
import { BASE_STYLES } from '../../../report/html/styles.js';
import { VERDICT_CSS } from '../../../report/verdict.js';

/** compare.html's CSS: report.html's colours, system fonts only, light and dark, one column below 700 px (the tables become cards). */
export const STYLES = `
${BASE_STYLES}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg)}
a{color:var(--link)}
header{padding:18px 28px 6px}
header h1{margin:0;font-size:20px}
header .meta{color:var(--muted);font-size:12.5px;margin-top:4px;overflow-wrap:anywhere}
header .meta b{color:var(--fg);font-weight:600}
.forced{margin:8px 28px;padding:8px 12px;border-radius:6px;background:#fff3cd;color:#5c4400}
${VERDICT_CSS}
main{padding:0 28px 40px}
h2{font-size:16px;margin:26px 0 10px;border-bottom:1px solid var(--line);padding-bottom:4px}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(200px,1fr));gap:10px}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:10px 14px;min-width:0}
.card h3{margin:0 0 6px;font-size:12px;font-weight:600;color:var(--muted);text-transform:uppercase;letter-spacing:.03em}
.big{font-size:26px;font-weight:650;line-height:1.2}
.big small{font-size:14px;font-weight:500;color:var(--muted);white-space:nowrap}
.hint,.ci{color:var(--muted);font-size:12px}
ul.kv{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:2px 14px}ul.kv.col{flex-direction:column}
.bad{color:var(--bad)}.good{color:var(--good)}
.card a.jump{display:inline-block;margin-top:4px;font-size:12.5px}
.grid2{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:12px;align-items:start}
.grid2>*,.drift-panel>*{min-width:0}
.grid2.metrics{grid-template-columns:minmax(300px,2fr) minmax(420px,3fr)}
@media (max-width:1000px){.grid2.metrics{grid-template-columns:1fr}}
table{border-collapse:collapse;width:100%}
.panel{background:var(--card);border:1px solid var(--line);border-radius:8px;overflow:auto}
caption{text-align:left;font-weight:600;padding:8px 10px 4px;font-size:13px}
th,td{text-align:left;padding:5px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:12px;color:var(--muted);font-weight:600;background:var(--card)}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.sig-bad td:first-child{box-shadow:inset 3px 0 var(--bad)}tr.sig-good td:first-child{box-shadow:inset 3px 0 var(--good)}
tr.filterable{cursor:pointer}tr.filterable:hover,tbody tr.row:hover{background:var(--hover)}
.tabs{display:flex;flex-wrap:wrap;gap:6px;margin:0 0 10px}
.tabs button{font:inherit;font-size:13px;padding:4px 10px;border:1px solid var(--line);border-radius:16px;background:var(--card);color:var(--fg);cursor:pointer}
.tabs button[aria-pressed=true]{border-color:var(--accent);box-shadow:inset 0 0 0 1px var(--accent);font-weight:600}
.tabs button .n{color:var(--muted);margin-left:4px;font-variant-numeric:tabular-nums}
.tabs button.tone-bad .n{color:var(--bad)}.tabs button.tone-good .n{color:var(--good)}
.controls{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin-bottom:8px}
.controls input,.controls select,.controls button,.pager button,.pager select{font:inherit;padding:4px 8px;border:1px solid var(--line);border-radius:6px;background:var(--card);color:var(--fg);max-width:100%}
.controls input{min-width:220px;flex:1 1 220px}
.chip{display:inline-flex;gap:6px;align-items:center;padding:2px 8px;border-radius:12px;background:var(--hover);font-size:12.5px}
.chip button{border:0;background:none;color:var(--fg);cursor:pointer;padding:0 2px;font:inherit}
.status{color:var(--muted);margin:6px 0}
.pager{display:flex;gap:8px;align-items:center;margin:8px 0;flex-wrap:wrap}
table.changes{font-size:13px;table-layout:fixed}
table.changes thead th[data-sort]{cursor:pointer;user-select:none}
th[aria-sort=ascending]::after{content:" ▲"}th[aria-sort=descending]::after{content:" ▼"}
td.id{font-family:ui-monospace,monospace;font-size:12px;overflow-wrap:anywhere}
td .sub{color:var(--muted);font-size:12px;overflow-wrap:anywhere}
.clamp{overflow:hidden;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical}
.side .label{font-weight:600;margin-right:4px;overflow-wrap:anywhere}
.side .answer{color:var(--muted);overflow:hidden;text-overflow:ellipsis;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical}
.badge{display:inline-block;padding:0 7px;border-radius:9px;font-size:12px;color:#fff;white-space:nowrap}
${OUTCOMES.map((o) => `.o-${o}{background:${OUTCOME_CLASSES[o].colour}}`).join('')}
${VERDICT_BADGE_CSS}
table.conv{margin-bottom:0}.panel+.hint{margin:4px 0 12px}h2+p+.panel,.panel+.panel{margin-top:10px}
details.conv-apart{margin:10px 0}details.conv-apart>summary{cursor:pointer;font-weight:600;font-size:13px;margin-bottom:6px}
.delta-up{color:var(--good)}.delta-down{color:var(--bad)}
.drift-panel{display:grid;grid-template-columns:minmax(260px,1fr) 2fr;gap:12px;margin-bottom:12px}
.drift-panel figure{margin:0;background:var(--card);border:1px solid var(--line);border-radius:8px;padding:10px 12px}
figcaption{font-weight:600;font-size:13px;margin-bottom:4px}
svg.chart{width:100%;height:auto;font-size:10.5px;fill:var(--fg)}
svg .axis line{stroke:var(--muted);stroke-width:.6}svg .zero{stroke:var(--fg);stroke-dasharray:3 3}
svg .up{fill:var(--good)}svg .down{fill:var(--bad)}svg .label{fill:var(--muted)}
.range{position:relative;height:14px;min-width:120px;background:var(--line);border-radius:3px}
.range span{position:absolute;top:0;bottom:0}
.range .box{background:var(--accent);opacity:.45;border-radius:2px}.range .med{width:2px;background:var(--fg)}.range .zero{width:1px;background:var(--muted)}
.detail td{background:var(--bg)}
.detail .pair{display:grid;grid-template-columns:1fr 1fr;gap:10px}
.detail .pair>div{background:var(--card);border:1px solid var(--line);border-radius:6px;padding:6px 10px;min-width:0}
.detail .k{color:var(--muted);margin-right:6px}.detail .v{white-space:pre-wrap;overflow-wrap:anywhere}
footer{color:var(--muted);font-size:12px;padding:0 28px 24px}
@media (max-width:700px){
header{padding:14px 14px 4px}main{padding:0 14px 32px}.verdict,.forced{margin:8px 14px}footer{padding:0 14px 20px}
.grid2,.drift-panel{grid-template-columns:1fr}
.cards{grid-template-columns:repeat(auto-fill,minmax(150px,1fr))}
.big{font-size:22px}
table.changes,table.changes tbody,table.changes tr,table.changes td{display:block;width:auto!important}
table.changes thead{display:none}table.changes caption{display:block}
table.changes tr.row{border-bottom:1px solid var(--line);padding:6px 0}
table.changes td{border:0;padding:2px 8px}
table.changes td[data-label]::before{content:attr(data-label) ": ";color:var(--muted);font-size:12px}
table.changes td.num{text-align:left}table.changes td.num>div{display:inline;margin-right:8px}
.detail .pair{grid-template-columns:1fr}
.controls input{min-width:0}
table.slices tr>:nth-child(2),table.slices tr>:nth-child(6),table.slices tr>:nth-child(7){display:none}
table.slices th,table.slices td{padding:4px 5px}table.slices td:first-child{overflow-wrap:anywhere}
}
`;
