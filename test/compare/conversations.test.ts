import { describe, expect, it } from 'vitest';
import { ChangeList } from '../../src/compare/changes.js';
import { compareReports } from '../../src/compare/compare.js';
import { renderCompareConsole } from '../../src/compare/render/console.js';
import { renderCompareHtml } from '../../src/compare/render/html/index.js';
import { renderCompareMarkdown } from '../../src/compare/render/markdown.js';
import { ChangeLineSchema, ComparisonSchema, type Comparison } from '../../src/compare/schema.js';
import { listedChanges } from '../../src/compare/write.js';
import { regressionGates } from '../../src/gate/gates.js';
import type { Outcome } from '../../src/model/outcome.js';
import { conversation, conversationPair, FILES, report, result } from './fixtures.js';

const { base, head, IMG } = conversationPair();

describe('compare pairs conversations by id and turn', () => {
  const changes = new ChangeList();
  const c = compareReports(base, head, { files: FILES, resamples: 20 }, changes);
  const v = c.conversations!;

  it('counts common, added, removed and changed conversations, and the broken and fixed ones', () => {
    expect(v.counts).toEqual({ common: 5, added: 1, removed: 1, changed: 2, broken: 3, brokenByError: 1, fixed: 1, quarantined: 0 });
    expect(v.added.map((a) => [a.id, a.verdict, a.at, a.turns])).toEqual([['new', 'failed', 2, 2]]);
    expect(v.removed.map((a) => [a.id, a.verdict, a.turns])).toEqual([['gone', 'passed', 1]]);
    expect(v.changed.map((e) => [e.id, e.base.turns, e.head.turns, e.editedTurns])).toEqual([['longer', 2, 3, []], ['edited', 2, 2, [2]]]);
    // the common ones: base passed 3 of 5 (mends and still failed), head 1 (mends) of 4 (errs in error, apart)
    expect(v.passRate).toEqual({ base: 0.6, head: 0.25, delta: 0.25 - 0.6 });
    expect(ComparisonSchema.parse(JSON.parse(JSON.stringify(c)))).toEqual(c);
  });

  it('names the first turn whose outcome changed, both outcomes and why, in BASE order', () => {
    expect(v.broken).toEqual([
      {
        id: 'breaks', question: 'breaks turn 1', tags: ['dialogue'],
        base: { verdict: 'passed', at: null, turns: 3 }, head: { verdict: 'failed', at: 2, turns: 3 },
        turn: { turn: 2, question: 'breaks turn 2', base: 'correct', head: 'wrong', reason: 'expected label "x-2"' },
      },
      {
        id: 'errs', question: 'errs turn 1', tags: ['dialogue'],
        base: { verdict: 'passed', at: null, turns: 2 }, head: { verdict: 'error', at: 1, turns: 2 },
        turn: { turn: 1, question: 'errs turn 1', base: 'correct', head: 'error', reason: 'http: HTTP 500' },
      },
      expect.objectContaining({ id: `x ${IMG}`, turn: expect.objectContaining({ turn: 2, head: 'check_failed' }) }),
    ]);
    expect(v.fixed).toEqual([expect.objectContaining({ id: 'mends', head: { verdict: 'passed', at: null, turns: 2 }, turn: { turn: 2, question: 'mends turn 2', base: 'wrong', head: 'correct', reason: null } })]);
  });

  it('every listed conversation is a line of changes.jsonl, its class naming its list; compare.json lists the first listLimit', () => {
    const lines = changes.lines.filter((l) => l.class.startsWith('conversation'));
    expect(lines.map((l) => `${l.class} ${l.id}`)).toEqual([
      'conversationBroken breaks', 'conversationFixed mends', 'conversationBroken errs', 'conversationRemoved gone',
      'conversationChanged longer', 'conversationChanged edited', `conversationBroken x ${IMG}`, 'conversationAdded new',
    ]);
    for (const line of lines) expect(ChangeLineSchema.parse(line)).toEqual(line);
    expect(listedChanges(c).lines.filter((l) => l.class.startsWith('conversation'))).toHaveLength(lines.length);
    const one = compareReports(base, head, { files: FILES, resamples: 20, listLimit: 1 }).conversations!;
    expect(one.broken.map((b) => b.id)).toEqual(['breaks']);
    expect(one.counts.broken).toBe(3);
  });

  it('the turns stay questions: a turn that broke is a broken question, also in a conversation that failed before', () => {
    expect(c.questions.broken.map((q) => q.id)).toEqual(['breaks#2', 'still#2', `x ${IMG}#2`]);
    expect(c.questions.fixed.map((q) => q.id)).toEqual(['mends#2']);
    expect(c.questions.errors.map((q) => q.id)).toEqual(['errs#1']);
  });

  it('--fail-on regression fails on a conversation that broke to failed, not on one that ended in error', () => {
    const results = regressionGates(c, { failOn: 'regression' });
    expect(results.map((r) => [r.gate, r.metric, r.value, r.passed])).toEqual([
      ['--fail-on regression', 'broken', 3, false],
      ['--fail-on regression (conversations)', 'brokenConversations', 2, false],
    ]);
    expect(results[1]!.message).toBe(`2 broken conversations (breaks at turn 2, x ${IMG} at turn 2) with --fail-on regression`);
    // --max-broken and significant-regression count questions only
    expect(regressionGates(c, { maxBroken: 5 }).map((r) => r.metric)).toEqual(['broken']);
  });

  it('thousands of conversations: every one counted and sent to changes.jsonl, compare.json keeping the first listLimit', () => {
    const n = 5000;
    const many = (outcomes: Outcome[]) => report(Array.from({ length: n }, (_, k) => conversation(`c${k}`, outcomes)).flat());
    const sink = new ChangeList();
    const big = compareReports(many(['correct', 'correct', 'correct']), many(['correct', 'wrong', 'correct']), { files: FILES, resamples: 10, listLimit: 50 }, sink).conversations!;
    expect(big.counts).toMatchObject({ common: n, broken: n, fixed: 0 });
    expect(big.broken).toHaveLength(50);
    expect(big.broken.map((b) => b.turn.turn)).toEqual(Array.from({ length: 50 }, () => 2));
    expect(sink.lines.filter((l) => l.class === 'conversationBroken')).toHaveLength(n);
  });

  it('a comparison without conversations has none, and its gates are those of questions', () => {
    const plain = compareReports(report([result('a', 'correct')]), report([result('a', 'wrong')]), { files: FILES, resamples: 20 });
    expect(plain).not.toHaveProperty('conversations');
    expect(regressionGates(plain, { failOn: 'regression' }).map((r) => r.metric)).toEqual(['broken']);
    expect(renderCompareMarkdown(plain)).not.toContain('Conversations');
  });
});

describe('broken and fixed conversations in every compare format', () => {
  const c: Comparison = compareReports(base, head, { files: FILES, resamples: 20 });
  const html = [...renderCompareHtml(c, listedChanges(c))].join('');

  it('the console names each broken conversation at the turn that changed, and why', () => {
    const text = renderCompareConsole(c);
    expect(text).toContain('  conversations: 5 common, 1 added, 1 removed, 2 changed (a turn edited, added or removed); 3 broken (1 by an error, not a regression), 1 fixed; pass rate 60.0% -> 25.0% (−35.0 pts)');
    expect(text).toContain('  broken conversation: breaks at turn 2 (correct -> wrong): expected label "x-2"');
    expect(text).toContain('  broken conversation: errs at turn 1 (correct -> error): http: HTTP 500');
    expect(text.split('\n')).toContain('  fixed conversation: mends at turn 2 (wrong -> correct)');
  });

  it('compare.md: the counts, then the broken and fixed conversations, escaped', () => {
    const md = renderCompareMarkdown(c);
    expect(md).toContain('**Conversations**: 5 common, 1 added, 1 removed, 2 changed (a turn edited, added or removed); **3 broken (1 by an error, not a regression), 1 fixed**; pass rate 60.0% → 25.0% (−35.0 pts) over the common ones.');
    expect(md).toContain('### Broken conversations: passed, now failed or in error (3)');
    expect(md).toContain('| breaks | passed → failed at turn 2 | turn 2 (correct → wrong) | breaks turn 2 | expected label "x-2" |');
    expect(md).toContain('### Fixed conversations: failed or in error, now passed (1)');
    expect(md).toContain('### Added conversations (1)');
    expect(md).toContain('| longer | 2 → 3 | — | passed → passed |');
    expect(md).not.toContain('<img');
  });

  it('compare.html: a card and a section, the data escaped', () => {
    expect(html).toContain('<h3>Conversations</h3><div class="big"><span class="bad">3</span> <small>broken</small></div>');
    expect(html).toContain('<h2 id="conversations">Conversations</h2>');
    expect(html).toContain('<caption>Broken: passed, now failed or in error (3)</caption>');
    expect(html).toContain('turn 2: <span class="badge o-correct">correct</span> → <span class="badge o-wrong">wrong</span><div class="sub">breaks turn 2</div>');
    expect(html).toContain('x &lt;img src=x onerror=&quot;window.__xss=1&quot;&gt;');
    expect(html).not.toContain(IMG);
  });
});
