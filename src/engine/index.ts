export { loadKnowledgeBase, parseKbJsonl, parseKbCsv, type KbEntry, type KnowledgeBase } from './kb.js';
export { createRetriever, type Ranked, type Retriever, type RetrievalOptions } from './retrieval.js';
export { SAMPLE_KB, SAMPLE_QUESTIONS } from './samples.js';
