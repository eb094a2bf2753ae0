import { describe, expect, it } from 'vitest';
import { decided, selectThreads, threadsOf, threadText, type ThreadQuery } from '../../src/pages/report/thread-list.js';
import { pageView } from '../../src/pages/report/view.js';
import { needleOf, textSearch } from '../../src/pages/shared/search.js';
import { conversationReport, conversationResults, HOSTILE } from '../helpers/conversation-report.js';
import { reportPageData } from '../helpers/page-data.js';

// The conversations' threads (src/pages/report/thread-list.ts) rebuilt from the page data of a scored run.

const results = conversationResults();
const view = pageView(reportPageData(conversationReport(results)));
const threads = threadsOf(view);
const matches = textSearch((k) => threadText(view, threads[k]!));
const select = (q: Partial<ThreadQuery>): string[] =>
  selectThreads(view, threads, { verdict: '', outcome: '', category: '', language: '', tag: '', needle: '', ...q }, matches).map((k) => threads[k]!.id);

describe('the conversations’ threads', () => {
  it('rebuilds every conversation from its consecutive rows, with its verdict and the turn that decided it', () => {
    const byConversation = new Map<string, typeof results>();
    for (const r of results) if (r.conversation) byConversation.set(r.conversation.id, [...(byConversation.get(r.conversation.id) ?? []), r]);
    expect(threads.map((t) => [t.id, t.rows.length, t.verdict, t.at])).toEqual(
      [...byConversation].map(([id, turns]) => [id, turns.length, turns[0]!.conversation!.verdict, turns[0]!.conversation!.at]),
    );
  });

  it('lists the failing ones first, each group in dataset order, and filters by verdict, outcome, language and text', () => {
    expect(select({})).toEqual(['meter', `hostile ${HOSTILE}`, 'outage', 'move', 'trasloco']);
    expect(select({ verdict: 'failing' })).toEqual(['meter', `hostile ${HOSTILE}`, 'outage']);
    expect(select({ verdict: 'error' })).toEqual(['outage']);
    expect(select({ outcome: 'error' })).toEqual(['outage']);
    expect(select({ language: 'it' })).toEqual(['trasloco']);
    expect(select({ needle: needleOf('MARIA.rossi') })).toEqual(['trasloco']);
    expect(select({ needle: needleOf('07321') })).toEqual(['meter']);
  });

  it('says what decided a conversation, in words', () => {
    const byId = Object.fromEntries(threads.map((t) => [t.id, t]));
    expect(decided(view, byId['move']!)).toBe('every turn passed (3 turns)');
    expect(decided(view, byId['outage']!)).toBe('error at turn 2 of 3: http: HTTP 503 from http://127.0.0.1:1/api/v1/answer');
    expect(decided(view, byId['meter']!)).toMatch(/^failed at turn 2 of 2: wrong: /);
  });
});
