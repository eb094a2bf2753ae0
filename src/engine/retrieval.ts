import MiniSearch from 'minisearch';
import { createAnalyzer, type Analyzer, type AnalyzerOptions } from './analyzer.js';
import { trainClassifier, type Classifier } from './classifier.js';
import type { KbEntry, KnowledgeBase } from './kb.js';

/** One entry proposed for a question, with its score on the 0-100 scale (see docs/engine.md). */
export interface Ranked {
  entry: KbEntry;
  score: number;
}

export interface RetrievalOptions {
  /** Weight of the answer text (and theme) against the examples. @default 0.5 */
  answerWeight?: number;
  /** Weight of the classifier's probability added to the BM25 match (0: BM25 only). @default 0.3 */
  classifierWeight?: number;
  /** How questions and examples are split into terms (the follow-ups of a dialogue step keep stop words and numbers' shape). */
  analyzer?: AnalyzerOptions;
}

export interface Retriever {
  /** Entries ranked best first (at most `limit`), for a question in `language`. Pure and synchronous. */
  answer(question: string, language: string, limit?: number): Ranked[];
  /** Languages the knowledge base has entries in. */
  languages: ReadonlySet<string>;
}

// One document per entry holds all its examples, so term frequency carries the vote of the
// examples; a large k keeps that vote from saturating. Tuned on CLINC150 val (docs/engine.md).
const BM25 = { k: 10, b: 0.7, d: 0 };

interface Doc {
  id: number;
  examples: string;
  answer: string;
}

interface Shard {
  analyze: Analyzer;
  index: MiniSearch<Doc>;
  entries: KbEntry[];
  docFreq: Map<string, number>;
  boost: Record<string, number>;
  classifier: Classifier | undefined;
  classifierWeight: number;
}

function buildShard(entries: KbEntry[], language: string, answerWeight: number, classifierWeight: number, analyzer: AnalyzerOptions): Shard {
  const analyze = createAnalyzer(language, analyzer);
  const index = new MiniSearch<Doc>({ fields: ['examples', 'answer'], tokenize: (s) => s.split(' ').filter(Boolean) });
  const docFreq = new Map<string, number>();
  const analyzed = entries.map((entry) => entry.examples.map((e) => analyze(e)));
  const docs = entries.map((entry, id) => {
    const examples = analyzed[id]!.flat();
    const answer = analyze(`${entry.answer} ${entry.theme ?? ''}`);
    for (const term of new Set([...examples, ...answer])) docFreq.set(term, (docFreq.get(term) ?? 0) + 1);
    return { id, examples: examples.join(' '), answer: answer.join(' ') };
  });
  index.addAll(docs);
  const classifier = classifierWeight > 0 ? trainClassifier(analyzed) : undefined;
  return { analyze, index, entries, docFreq, boost: { examples: 1, answer: answerWeight }, classifier, classifierWeight };
}

/**
 * The best score a question could get: each of its terms found once in a document of average
 * length. Unknown words weigh most, so a question full of them scores low.
 */
function ceiling(terms: string[], shard: Shard): number {
  const n = shard.entries.length;
  let sum = 0;
  for (const term of terms) {
    const df = shard.docFreq.get(term) ?? 0;
    sum += Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }
  return sum * terms.length; // MiniSearch multiplies by the number of matched query terms
}

/**
 * ratio (score / ceiling) and the classifier's weighted probability → 0-100. sqrt undoes MiniSearch's
 * matched-terms multiplier; x / (x + 0.5) keeps the scale open at the top (frequent terms in many examples
 * push the ratio above 1) and monotonic. Without the classifier: ratio 0.04 → 28.6, 0.25 → 50, 1 → 66.7, 4 → 80.
 */
export function toScale(ratio: number, weightedProbability = 0): number {
  const x = Math.sqrt(Math.max(0, ratio)) + weightedProbability;
  return Math.round((1000 * x) / (x + 0.5)) / 10;
}

function rank(shard: Shard, question: string, limit: number): Ranked[] {
  const terms = [...new Set(shard.analyze(question))];
  if (!terms.length) return [];
  const top = ceiling(terms, shard);
  const known = terms.filter((term) => shard.docFreq.has(term)); // unknown terms only lower the ceiling
  const hits = shard.index.search(known.join(' '), { bm25: BM25, boost: shard.boost });
  // Every entry BM25 found is a candidate; the classifier re-orders them (MiniSearch's order otherwise).
  const p = shard.classifier?.probabilities(terms);
  const ranked: (Ranked & { x: number })[] = [];
  for (const hit of p ? hits : hits.slice(0, limit)) {
    const id = hit.id as number;
    const entry = shard.entries[id];
    const bonus = p ? shard.classifierWeight * p[id]! : 0;
    if (entry) ranked.push({ entry, score: toScale(hit.score / top, bonus), x: Math.sqrt(hit.score / top) + bonus });
  }
  if (p) ranked.sort((a, b) => b.x - a.x);
  return ranked.slice(0, limit).map(({ entry, score }) => ({ entry, score }));
}

/**
 * Indexes the knowledge base once per language; a question is matched against its language's entries.
 * Dialogue-only entries are left out: they answer only inside a dialogue (dialogue.ts).
 */
export function createRetriever(kb: KnowledgeBase, options: RetrievalOptions = {}): Retriever {
  return indexEntries(kb.entries.filter((e) => !e.dialogueOnly), options);
}

/** A retriever over exactly these entries (the normal index, or the follow-ups of one dialogue step). */
export function indexEntries(entries: KbEntry[], options: RetrievalOptions = {}): Retriever {
  const answerWeight = options.answerWeight ?? 0.5;
  const classifierWeight = options.classifierWeight ?? 0.3;
  const byLanguage = new Map<string, KbEntry[]>();
  for (const entry of entries) {
    const list = byLanguage.get(entry.language);
    if (list) list.push(entry);
    else byLanguage.set(entry.language, [entry]);
  }
  const shards = new Map<string, Shard>();
  const shardFor = (language: string): Shard => {
    let shard = shards.get(language);
    if (!shard) {
      // A language without entries of its own searches the whole base with its own analyzer.
      shard = buildShard(byLanguage.get(language) ?? entries, language, answerWeight, classifierWeight, options.analyzer ?? {});
      shards.set(language, shard);
    }
    return shard;
  };
  for (const language of byLanguage.keys()) shardFor(language);
  return {
    languages: new Set(byLanguage.keys()),
    answer: (question, language, limit = 5) => rank(shardFor(language), question, limit),
  };
}
