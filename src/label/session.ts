import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { HttpError } from '../local-server/respond.js';
import type { DecideRequest, Figures, KbHit, LabelItem, LabelState, Progress, WriteReply } from '../pages/label/data.js';
import { cellChanges, isUnlabeledRow, type Decision } from './decision.js';
import { figuresOf } from './figures.js';
import { searchKb } from './kb-search.js';
import { loadSources, type LabelSources, type LoadOptions } from './load.js';
import { appendLog, readLog, replay, LOG_VERSION, type LogDecision, type LogEntry, type LogLines, type LogUndo } from './log.js';
import { labelOrder } from './order.js';
import { editRow, parseSet, replaceRow, SetEditError, type ParsedSet } from './set-file.js';
import { writeFileAtomically } from '../util/temp-file.js';

/** The set as it is on disk now. */
interface SetNow {
  revision: string;
  mode: number;
  parsed: ParsedSet;
}

/** The questions to label now, in order, and how far the labeling is. */
interface Queue {
  order: LabelItem[];
  progress: Progress;
  /** Questions of the run whose row the set no longer holds as the run asked it. */
  missing: number;
}

const sha256 = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');

const conflict = (): HttpError => new HttpError(409, 'the question set changed on disk since this page read it: nothing was written; reload the page');

/**
 * A labeling session: the run's questions to label, the question set they are written into and its decision log.
 * Every write reads the set again and is refused when it is not the revision the page read (a file changed on disk
 * is never overwritten); a decision is appended to the log, synced, before the set is rewritten atomically. Writes
 * run one at a time. Nothing but the set and its log is ever written.
 */
export class LabelSession {
  private chain: Promise<unknown> = Promise.resolve();
  private figuresDone?: Figures;
  private figuresRunning?: Promise<Figures>;
  readonly notes: string[];

  private constructor(readonly sources: LabelSources) {
    this.notes = [...sources.notes];
  }

  /** Reads the run, the set and the knowledge base, and finishes a decision the log holds but the set does not (a stop between the two writes). */
  static async open(o: LoadOptions): Promise<LabelSession> {
    const session = new LabelSession(await loadSources(o));
    await session.recover();
    return session;
  }

  /** Runs `f` after every write before it. */
  private serial<T>(f: () => Promise<T>): Promise<T> {
    const run = this.chain.then(f, f);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async readSet(): Promise<SetNow> {
    const [bytes, info] = await Promise.all([readFile(this.sources.setPath), stat(this.sources.setPath)]);
    let parsed: ParsedSet;
    try {
      parsed = parseSet(bytes.toString('utf8'), this.sources.format);
    } catch (error) {
      if (error instanceof SetEditError) throw new HttpError(409, `${this.sources.setName}:${error.line}: ${error.message}; nothing was written`, {}, { cause: error });
      throw error;
    }
    return { revision: sha256(bytes), mode: info.mode, parsed };
  }

  private queue(set: ParsedSet, lines: LogLines): Queue {
    const decided = new Map<string, 'label' | 'skip'>();
    for (const i of replay(lines).active) {
      const e = lines[i] as LogDecision;
      decided.delete(e.id); // the later decision counts, and orders the skipped
      decided.set(e.id, e.decision.kind === 'skip' ? 'skip' : 'label');
    }
    const todo: LabelItem[] = [];
    const skipped = new Map<string, LabelItem>();
    let missing = 0;
    for (const item of this.sources.items.values()) {
      const row = set.rows.get(item.id);
      if (row === undefined || row.conversation || row.question !== item.question.trim()) {
        missing++;
        continue;
      }
      const d = decided.get(item.id);
      if (d === 'label' || (item.outcome === 'unlabeled' && !isUnlabeledRow(row.values))) continue;
      if (d === 'skip') skipped.set(item.id, item);
      else todo.push(item);
    }
    const skippedInOrder = [...decided].flatMap(([id, d]) => (d === 'skip' && skipped.has(id) ? [skipped.get(id)!] : []));
    const order = [...labelOrder(todo.map((item) => ({ item, line: item.line, count: item.count, scores: item.answers.filter((a) => a.pickable).map((a) => a.score) })), this.sources.floor).map((k) => k.item), ...skippedInOrder];
    const labeled = [...decided.values()].filter((d) => d === 'label').length;
    return { order, progress: { labeled, todo: order.length, skipped: skippedInOrder.length }, missing };
  }

  /** What the page shows first: the set's revision, progress, the first `count` questions, notes. */
  async state(count = 10): Promise<LabelState> {
    return this.serial(async () => {
      const set = await this.readSet();
      const q = this.queue(set.parsed, await readLog(this.sources.logPath));
      const { head, reportPath, setName, logPath, kb } = this.sources;
      const notes = [...this.notes, ...(q.missing > 0 ? [`${q.missing} question(s) of the run are not in ${setName} as the run asked them (the set changed since the run?): they are left out`] : [])];
      return {
        revision: set.revision,
        set: { path: setName, format: set.parsed.format, column: set.parsed.column, log: logPath },
        run: { path: reportPath, startedAt: head.run.startedAt, target: head.run.embeddedEngine ? 'embedded engine' : head.run.baseUrl, questions: head.summary.total },
        kb: kb?.path ?? null,
        progress: q.progress,
        items: q.order.slice(0, count),
        notes,
      };
    });
  }

  /** The next `count` questions to label that the page does not hold. */
  async next(exclude: readonly string[], count: number): Promise<LabelItem[]> {
    return this.serial(async () => {
      const set = await this.readSet();
      const held = new Set(exclude);
      return this.queue(set.parsed, await readLog(this.sources.logPath)).order.filter((i) => !held.has(i.id)).slice(0, count);
    });
  }

  /** The decision a request names, checked: an answer the question got, or an entry of the knowledge base. */
  private decisionOf(item: LabelItem, request: DecideRequest['decision']): Decision {
    if (request.kind !== 'answer') return request;
    const answer = item.answers.find((a) => a.pickable && a.sequence === request.sequence);
    const entry = this.sources.kb?.entries.find((e) => e.sequenceNumber === request.sequence);
    if (answer === undefined && entry === undefined) throw new HttpError(400, `sequence number ${request.sequence} is neither an answer of question "${item.id}" nor an entry of the knowledge base`);
    const label = answer !== undefined ? answer.label : entry!.label;
    return { kind: 'answer', sequence: request.sequence, ...(label !== undefined ? { label } : {}) };
  }

  /** Appends to the log (synced), then writes the set if it changed; the new revision. */
  private async commit(set: SetNow, entry: LogEntry, text: string | undefined): Promise<string> {
    await appendLog(this.sources.logPath, entry);
    if (text === undefined) return set.revision;
    await writeFileAtomically(this.sources.setPath, text, { mode: set.mode });
    return entry.set.after;
  }

  private async progressAfter(revision: string): Promise<Progress> {
    const set = await this.readSet();
    if (set.revision !== revision) throw conflict();
    return this.queue(set.parsed, await readLog(this.sources.logPath)).progress;
  }

  /** Writes a decision into the set (its log first). */
  async decide(request: DecideRequest): Promise<WriteReply> {
    return this.serial(async () => {
      const set = await this.readSet();
      if (set.revision !== request.revision) throw conflict();
      const item = this.sources.items.get(request.id);
      const lines = await readLog(this.sources.logPath);
      if (item === undefined || !this.queue(set.parsed, lines).order.some((i) => i.id === request.id)) {
        throw new HttpError(409, `question "${request.id}" is not one to label now (labeled already, or not a question of this run): reload the page`);
      }
      const decision = this.decisionOf(item, request.decision);
      const changes = cellChanges(decision, set.parsed.column, set.parsed.rows.get(request.id)!.values);
      let edit;
      try {
        edit = changes.size > 0 ? editRow(set.parsed, request.id, changes) : undefined;
      } catch (error) {
        if (error instanceof SetEditError) throw new HttpError(409, `${this.sources.setName}:${error.line}: ${error.message}; nothing was written`, {}, { cause: error });
        throw error;
      }
      const after = edit === undefined ? set.revision : sha256(Buffer.from(edit.text, 'utf8'));
      const entry: LogDecision = {
        v: LOG_VERSION,
        kind: 'decision',
        at: new Date().toISOString(),
        id: request.id,
        decision,
        ...(edit ? { changes: Object.fromEntries(changes), row: { before: edit.before, after: edit.after }, ...(edit.added.length > 0 ? { added: edit.added } : {}) } : {}),
        set: { before: set.revision, after },
      };
      const revision = await this.commit(set, entry, edit?.text);
      return { revision, progress: await this.progressAfter(revision) };
    });
  }

  /** Undoes the last decision in force (the log says which, across restarts): its row put back as it was. */
  async undo(revision: string): Promise<WriteReply> {
    return this.serial(async () => {
      const set = await this.readSet();
      if (set.revision !== revision) throw conflict();
      const lines = await readLog(this.sources.logPath);
      const last = replay(lines).active.at(-1);
      if (last === undefined) throw new HttpError(409, 'nothing to undo: the log holds no decision in force');
      const decided = lines[last] as LogDecision;
      let text: string | undefined;
      if (decided.row !== undefined) {
        text = set.parsed.rows.has(decided.id) ? replaceRow(set.parsed, decided.id, decided.row.after, decided.row.before) : undefined;
        if (text === undefined) throw new HttpError(409, `the row of "${decided.id}" changed since that decision: it is not undone (edit it by hand)`);
      }
      const after = text === undefined ? set.revision : sha256(Buffer.from(text, 'utf8'));
      const entry: LogUndo = { v: LOG_VERSION, kind: 'undo', at: new Date().toISOString(), of: last, id: decided.id, set: { before: set.revision, after } };
      const next = await this.commit(set, entry, text);
      const item = this.sources.items.get(decided.id);
      return { revision: next, progress: await this.progressAfter(next), ...(item ? { item } : {}) };
    });
  }

  /**
   * The run judged again against the set as it is now (rescore), computed once per revision of the set. Not in the
   * write queue: a set rewritten while rescore read it is read again.
   */
  async figures(): Promise<Figures> {
    for (let tries = 0; ; tries++) {
      const before = sha256(await readFile(this.sources.setPath));
      if (this.figuresDone?.revision === before) return this.figuresDone;
      this.figuresRunning ??= figuresOf(this.sources.reportPath, this.sources.setPath, before).finally(() => (this.figuresRunning = undefined));
      const figures = await this.figuresRunning;
      const now = sha256(await readFile(this.sources.setPath));
      if (figures.revision === now || tries >= 2) {
        this.figuresDone = figures;
        return figures;
      }
    }
  }

  /** Entries of the knowledge base a search finds (none without one). */
  searchKb(query: string): KbHit[] {
    return this.sources.kb ? searchKb(this.sources.kb.entries, query) : [];
  }

  /**
   * A decision (or undo) the log holds whose set write did not happen (the process stopped between the two): the set
   * is still the revision the entry was made from, so the entry is written into it now. A set changed otherwise since
   * the last entry is left alone, and said.
   */
  private async recover(): Promise<void> {
    const lines = await readLog(this.sources.logPath);
    const last = lines.at(-1);
    if (last === undefined) return;
    const set = await this.readSet();
    if (set.revision === last.set.after) return;
    if (set.revision !== last.set.before) {
      this.notes.push(`${this.sources.setName} changed since the last decision of its log (edited by hand?): undo puts back only rows still as the log left them`);
      return;
    }
    let text: string | undefined;
    try {
      if (last.kind === 'decision' && last.changes) text = editRow(set.parsed, last.id, new Map(Object.entries(last.changes))).text;
      const undone = last.kind === 'undo' ? (lines[last.of] as LogDecision | undefined) : undefined;
      if (undone?.row) text = replaceRow(set.parsed, last.id, undone.row.after, undone.row.before);
    } catch {
      text = undefined;
    }
    if (text === undefined || sha256(Buffer.from(text, 'utf8')) !== last.set.after) {
      this.notes.push(`the last entry of ${this.sources.logPath} is not in ${this.sources.setName} and cannot be written into it as it is now`);
      return;
    }
    await writeFileAtomically(this.sources.setPath, text, { mode: set.mode });
    this.notes.push(`the last ${last.kind} of the log ("${last.id}") was not in ${this.sources.setName} (a stop between the log and the set): written now`);
  }
}
