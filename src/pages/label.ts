// The script of the label page (bundled by build-pages.mjs into dist/page-scripts/label.js and served inline by
// `answer-eval label`): one question at a time, keyboard first. A decision shows the next question at once (the
// page holds the next ones already) and is written in the background, one write after another, each naming the
// revision of the set the previous one left; a write refused because the set changed on disk stops the page.
import { markReady, byId, onTyped } from './shared/dom.js';
import { ApiError, call } from './label/api.js';
import type { DecisionRequest, Figures, KbHit, LabelItem, LabelState, WriteReply } from './label/data.js';
import { drawBanner, drawCard, drawFigures, drawHeader, drawHits, drawProgress } from './label/view.js';

/** Fetch more questions when fewer than this are held. */
const LOW = 5;

let revision = '';
let current: LabelItem | undefined;
let held: LabelItem[] = [];
/** Ids decided whose write is not answered yet: the server still counts them to do, so they are not fetched again. */
const inFlight = new Set<string>();
let writes: Promise<unknown> = Promise.resolve();
let pending = 0;
let stopped = false;
let refilling = false;
let hits: KbHit[] = [];
/** The query `hits` answer. */
let searched = '';
let hit = 0;
let figuresAsked = 0;

const setPending = (n: number): void => {
  pending = n;
  document.body.dataset['pending'] = String(n);
};

function stop(error: unknown): void {
  if (error instanceof ApiError && error.conflict) {
    stopped = true;
    drawBanner(`Nothing more is written: ${error.message}.`);
  } else drawBanner(`A request failed: ${(error as Error).message}`);
}

/** Runs a write after the ones before it. */
function queueWrite(write: () => Promise<void>): void {
  setPending(pending + 1);
  writes = writes
    .then(() => (stopped ? undefined : write()))
    .catch(stop)
    .finally(() => setPending(pending - 1));
}

async function refreshFigures(): Promise<void> {
  const asked = ++figuresAsked;
  const figures = await call<Figures>('figures', {}).catch(() => undefined);
  if (figures && asked === figuresAsked) drawFigures(figures);
}

async function refill(): Promise<void> {
  if (refilling || stopped) return;
  refilling = true;
  try {
    const holding = (): string[] => [...inFlight, ...held.map((i) => i.id), ...(current ? [current.id] : [])];
    const more = await call<LabelItem[]>('next', { exclude: holding(), count: 10 });
    // decided or shown meanwhile: not again
    const have = new Set(holding());
    held.push(...more.filter((i) => !have.has(i.id)));
    if (current === undefined && held.length > 0) showNext();
  } catch (error) {
    stop(error);
  } finally {
    refilling = false;
  }
}

function showNext(): void {
  current = held.shift();
  drawCard(current, stopped ? 'Stopped: reload the page.' : 'Nothing left to label.');
  if (held.length < LOW) void refill();
}

function afterWrite(reply: WriteReply): void {
  revision = reply.revision;
  drawProgress(reply.progress);
  void refreshFigures();
  // a skipped question comes back last, once its skip is written
  if (current === undefined) void refill();
}

function decide(decision: DecisionRequest): void {
  if (stopped || current === undefined) return;
  const id = current.id;
  inFlight.add(id);
  queueWrite(async () => {
    const reply = await call<WriteReply>('decide', { revision, id, decision }).finally(() => inFlight.delete(id));
    afterWrite(reply);
  });
  showNext();
}

function undo(): void {
  if (stopped) return;
  queueWrite(async () => {
    const reply = await call<WriteReply>('undo', { revision });
    afterWrite(reply);
    if (reply.item) {
      held = held.filter((i) => i.id !== reply.item!.id);
      if (current) held.unshift(current);
      current = reply.item;
      drawCard(current, '');
    }
  });
}

function pickRank(rank: number): void {
  const answer = current?.answers.find((a) => a.rank === rank);
  if (answer?.pickable) decide({ kind: 'answer', sequence: answer.sequence });
}

async function search(query: string): Promise<void> {
  const found = await call<KbHit[]>('kb', { query }).catch(() => []);
  if (byId<HTMLInputElement>('kb-query').value !== query && query !== '') return; // typed on meanwhile
  hits = found;
  searched = query;
  hit = 0;
  drawHits(hits, hit);
}

/** Enter in the search: the entry chosen among the hits of what is typed (searched first if the hits are of an earlier text). */
async function pickHit(input: HTMLInputElement): Promise<void> {
  if (input.value !== searched) await search(input.value);
  const chosen = hits[hit];
  if (chosen === undefined) return;
  decide({ kind: 'answer', sequence: chosen.sequence });
  input.value = '';
  input.blur();
  await search('');
}

function onKey(e: KeyboardEvent): void {
  const input = byId<HTMLInputElement>('kb-query');
  if (e.target === input) {
    if (e.key === 'Escape') {
      input.blur();
    } else if (e.key === 'Enter') {
      e.preventDefault();
      void pickHit(input);
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      hit = Math.max(0, Math.min(hits.length - 1, hit + (e.key === 'ArrowDown' ? 1 : -1)));
      drawHits(hits, hit);
    }
    return;
  }
  if (e.altKey || e.metaKey || (e.ctrlKey && e.key.toLowerCase() !== 'z')) return;
  const key = e.key.toLowerCase();
  if (/^[1-9]$/.test(key)) pickRank(Number(key));
  else if (key === 'r') decide({ kind: 'fallback' });
  else if (key === 's') decide({ kind: 'skip' });
  else if (key === 'u' || (e.ctrlKey && key === 'z')) undo();
  else if (key === '/') {
    e.preventDefault();
    input.focus();
  } else return;
  e.preventDefault();
}

function onClick(e: MouseEvent): void {
  const target = e.target as Element;
  const act = target.closest<HTMLElement>('button[data-act]')?.dataset['act'];
  if (act === 'fallback') return decide({ kind: 'fallback' });
  if (act === 'skip') return decide({ kind: 'skip' });
  if (act === 'undo') return undo();
  const answer = target.closest<HTMLElement>('ol.answers li:not(.off)');
  if (answer) return pickRank(Number(answer.dataset['rank']));
  const found = target.closest<HTMLElement>('#kb-hits li');
  if (found) decide({ kind: 'answer', sequence: Number(found.dataset['sequence']) });
}

async function start(): Promise<void> {
  setPending(0);
  try {
    const state = await call<LabelState>('state', {});
    revision = state.revision;
    drawHeader(state);
    drawProgress(state.progress);
    held = state.items;
    showNext();
    document.addEventListener('keydown', onKey);
    document.addEventListener('click', onClick);
    onTyped(byId<HTMLInputElement>('kb-query'), 150, (q) => void search(q));
    if (state.kb !== null) await search('');
    void refreshFigures();
  } catch (error) {
    stopped = true;
    drawBanner(`The page cannot start: ${(error as Error).message}`);
    drawCard(undefined, 'Stopped.');
  }
  markReady();
}

void start();
