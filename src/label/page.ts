import { strictCsp } from '../local-server/respond.js';
import { escapeHtml as h } from '../report/escape.js';
import { pageScript } from '../report/html/script.js';

const STYLE = `:root{--bg:#f6f7f9;--fg:#1d2330;--muted:#5d6679;--card:#fff;--line:#e3e6ec;--good:#1f7a4a;--bad:#b3261e;--warn:#8a5a00;--accent:#1f56c9;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#14171d;--fg:#e6e8ee;--muted:#a3acbd;--card:#1d2129;--line:#2f3642;--good:#5fd097;--bad:#f07070;--warn:#e8b550;--accent:#8fb3ff}}
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg);overflow-wrap:anywhere}
header,main,footer{max-width:980px;margin:0 auto;padding:0 20px}header{padding-top:16px}
h1{margin:0;font-size:19px}.muted{color:var(--muted)}.sub{color:var(--muted);margin:4px 0 0;font-size:13px}
#status{display:flex;flex-wrap:wrap;gap:6px 18px;margin:10px 0 0;font-size:14px}#status b{font-variant-numeric:tabular-nums}
#banner{margin:12px 0;padding:10px 14px;border-radius:8px;border:1px solid var(--bad);color:var(--bad);background:var(--card);font-weight:600}
#notes{margin:8px 0 0;padding-left:18px;color:var(--muted);font-size:13px}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:14px 16px;margin:14px 0}
#question{font-size:19px;font-weight:600;margin:4px 0 6px}
.meta{font-size:12.5px;color:var(--muted);display:flex;flex-wrap:wrap;gap:4px 14px}
ol.answers{list-style:none;margin:10px 0 0;padding:0}
ol.answers li{display:grid;grid-template-columns:2.2em 4.2em minmax(0,1fr);gap:4px 10px;padding:8px 6px;border-top:1px solid var(--line);cursor:pointer}
ol.answers li:hover{background:color-mix(in srgb,var(--accent) 8%,transparent)}
ol.answers li.off{cursor:default;opacity:.65}
.key{font:600 13px ui-monospace,monospace;border:1px solid var(--line);border-radius:5px;padding:1px 6px;text-align:center;height:fit-content}
.score{font-variant-numeric:tabular-nums;color:var(--muted)}.name{font-weight:600}
.flag{display:inline-block;margin-left:6px;padding:0 6px;border-radius:8px;border:1px solid var(--line);font-size:11.5px;color:var(--muted)}
.flag.floor{color:var(--warn);border-color:var(--warn)}
.text{grid-column:3;color:var(--fg);font-size:14px;white-space:pre-wrap}
.actions{display:flex;flex-wrap:wrap;gap:8px;margin-top:12px}
button{font:inherit;font-size:14px;padding:5px 12px;border-radius:7px;border:1px solid var(--line);background:var(--card);color:var(--fg);cursor:pointer}
button:focus-visible,input:focus-visible,li:focus-visible{outline:2px solid var(--accent);outline-offset:1px}
input[type=search]{font:inherit;width:100%;padding:7px 10px;border-radius:7px;border:1px solid var(--line);background:var(--card);color:var(--fg)}
ol.hits{list-style:none;margin:8px 0 0;padding:0}ol.hits li{padding:6px;border-top:1px solid var(--line);cursor:pointer}
ol.hits li.current{background:color-mix(in srgb,var(--accent) 12%,transparent)}
#done{font-size:17px}
footer{padding:18px 20px;color:var(--muted);font-size:12.5px}`;

/**
 * The label page: its frame, drawn by its script (src/pages/label.ts) from the server's replies; every string of the
 * set, the run or the knowledge base is put in as text by the script, never as HTML. Its policy allows nothing but
 * its own style and script (by hash) and requests to its server.
 */
export function renderLabelPage(setName: string): { html: string; csp: string } {
  const element = pageScript('label');
  const code = element.slice(element.indexOf('>') + 1, element.lastIndexOf('</script>'));
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><link rel="icon" href="data:,"><title>answer-eval label · ${h(setName)}</title><style>${STYLE}</style></head>
<body>
<header><h1>Labeling <span id="set-name"></span></h1><p class="sub" id="where"></p>
<p id="status"><span>labeled <b id="labeled">0</b></span><span>to do <b id="todo">0</b></span><span id="figures" class="muted">figures: computing…</span></p>
<div id="banner" role="alert" hidden></div><ul id="notes"></ul></header>
<main>
<section class="card" id="card" aria-live="polite"><p class="muted">Loading…</p></section>
<section class="card" id="search"><label for="kb-query"><b>Knowledge base</b> <span class="muted" id="kb-name"></span> <span class="key">/</span> to search, <span class="key">Enter</span> picks the first entry, <span class="key">Esc</span> back</label>
<input type="search" id="kb-query" autocomplete="off" placeholder="words, a label or a sequence number"><ol class="hits" id="kb-hits"></ol></section>
</main>
<footer id="keys">Keys: <span class="key">1</span>…<span class="key">9</span> the answer at that rank is right · <span class="key">R</span> should be refused (expect = fallback) · <span class="key">S</span> skip · <span class="key">U</span> undo the last decision · <span class="key">/</span> search the knowledge base. Each decision is written into the set at once, and kept in its log.</footer>
${element}
</body></html>`;
  return { html, csp: strictCsp({ style: STYLE, script: code, connect: true }) };
}
