import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { createRetriever, DEFAULT_FLOOR_THRESHOLD, DEFAULT_SUGGESTION_THRESHOLD, buildAnswers, loadKnowledgeBase, SAMPLE_KB, SAMPLE_QUESTIONS } from '../../src/engine/index.js';
import { toScale } from '../../src/engine/retrieval.js';
import { createAnalyzer, splitWords } from '../../src/engine/analyzer.js';
import { fitFeatures } from '../../src/engine/features.js';
import { seeded, withTypos } from './typos.js';
import { trainClassifier } from '../../src/engine/classifier.js';

const kb = await loadKnowledgeBase(SAMPLE_KB);
const retriever = createRetriever(kb);
const thresholds = { floor: DEFAULT_FLOOR_THRESHOLD, suggestion: DEFAULT_SUGGESTION_THRESHOLD, maxSuggestions: 2 };

describe('sample set quality at the default thresholds', () => {
  const rows = parse(readFileSync(SAMPLE_QUESTIONS, 'utf8'), { columns: true, bom: true }) as Record<string, string>[];

  it('has 40+ entries, 10+ Italian, small talk, and 100+ questions with 15+ out of scope', () => {
    expect(kb.entries.length).toBeGreaterThanOrEqual(40);
    expect(kb.entries.filter((e) => e.language === 'it').length).toBeGreaterThanOrEqual(10);
    expect(kb.entries.some((e) => e.smallTalk)).toBe(true);
    expect(rows.length).toBeGreaterThanOrEqual(100);
    expect(rows.filter((r) => r.expect === 'fallback').length).toBeGreaterThanOrEqual(15);
  });

  it('answers >= 85% of answerable questions right and refuses >= 80% of out-of-scope ones', () => {
    let answerable = 0, correct = 0, oos = 0, refused = 0;
    for (const row of rows) {
      const [top] = buildAnswers(retriever.answer(row.question ?? '', row.language ?? 'en'), row.language ?? 'en', thresholds);
      if (row.expect === 'fallback') {
        oos++;
        if (top?.is_dummy_floor_answer === 'true' || top?.is_dummy_answer === 'true') refused++;
      } else {
        answerable++;
        if (top?.sequence_number === row.expected_sequence) correct++;
      }
    }
    expect(correct / answerable).toBeGreaterThanOrEqual(0.85);
    expect(refused / oos).toBeGreaterThanOrEqual(0.8);
  });

  it('keeps >= 90% of its answerable accuracy when the questions have keyboard typos (3 seeds)', () => {
    const answerable = rows.filter((r) => r.expect !== 'fallback');
    const accuracy = (texts: string[]) =>
      answerable.filter((row, i) => buildAnswers(retriever.answer(texts[i]!, row.language ?? 'en'), row.language ?? 'en', thresholds)[0]?.sequence_number === row.expected_sequence).length / answerable.length;
    const clean = accuracy(answerable.map((row) => row.question ?? ''));
    for (const seed of [1, 2, 3]) {
      const random = seeded(seed);
      const typed = answerable.map((row) => withTypos(row.question ?? '', random));
      expect(typed.filter((t, i) => t !== answerable[i]!.question).length).toBeGreaterThan(answerable.length / 2);
      expect(accuracy(typed) / clean).toBeGreaterThanOrEqual(0.9);
    }
  });
});

describe('score scale', () => {
  it('maps the ratio to 0-100 monotonically', () => {
    expect([0, 0.04, 0.25, 1, 4].map((ratio) => toScale(ratio))).toEqual([0, 28.6, 50, 66.7, 80]);
    expect(toScale(1e9)).toBeLessThanOrEqual(100);
    // The classifier's weighted probability adds to sqrt(ratio): 0.5 + 0.3 → 61.5.
    expect(toScale(0.25, 0.3)).toBe(61.5);
    expect(toScale(1e9, 0.3)).toBeLessThanOrEqual(100);
  });
});

describe('classifier', () => {
  const an = createAnalyzer('en');
  const texts = [
    ['add milk to my shopping list', 'put eggs on the shopping list', 'please add bread to my list'],
    ['what is on my shopping list', 'read me my shopping list', 'tell me what my list has'],
  ];
  const analyzed = texts.flatMap((list) => list.map((text) => ({ words: splitWords(text, 'en'), terms: an(text) })));
  const labels = texts.flatMap((list, entry) => list.map(() => entry));
  const { space, vectors } = fitFeatures(analyzed);
  const vector = (text: string) => space.vector({ words: splitWords(text, 'en'), terms: an(text) });

  it('learns the words and pieces of words that tell entries apart, repeatably', () => {
    const model = trainClassifier(vectors, labels, 2, space.size)!;
    const p = model.probabilities(vector('add butter to the shopping list'));
    expect(p[0]).toBeGreaterThan(0.5);
    expect(p[0]! + p[1]!).toBeCloseTo(1);
    expect(model.probabilities(vector('what is on the list'))[1]).toBeGreaterThan(0.5);
    expect(trainClassifier(vectors, labels, 2, space.size)!.probabilities(vector('add tea'))).toEqual(model.probabilities(vector('add tea')));
  });

  it('is skipped with a single entry or no examples', () => {
    expect(trainClassifier(vectors.slice(0, 3), labels.slice(0, 3), 1, space.size)).toBeUndefined();
    expect(trainClassifier(vectors.slice(0, 3), labels.slice(0, 3), 2, space.size)).toBeUndefined(); // examples of one entry only
    expect(trainClassifier([], [], 2, space.size)).toBeUndefined();
  });
});
