/** The embedded reference Answer Service: knowledge base, retrieval, dialogues, HTTP server, fault injection. */
export { loadKnowledgeBase, parseKnowledgeBase, parseKbJsonl, parseKbCsv, KB_FIELDS, type KbEntry, type KnowledgeBase } from './kb.js';
export { createRetriever, type Ranked, type Retriever, type RetrievalOptions } from './retrieval.js';
export { buildAnswers, type AnswerItem, type AnswerResponse, type DialogueFlags, type Thresholds } from './respond.js';
export { createFollowUps, type FollowUps } from './dialogue.js';
export { createSessions, type Session, type SessionOptions, type Sessions } from './session.js';
export { takeTurn, type TurnConfig } from './turn.js';
export { parseLatency, createFaultPlanner, type FaultOptions, type FaultPlan, type FaultPlanner, type Fault, type Latency } from './faults.js';
export { ANSWER_PATH, MAX_BODY_BYTES, FAULT_KINDS, type EngineStats, type FaultKind } from './server.js';
export {
  startEngine,
  DEFAULT_FLOOR_THRESHOLD,
  DEFAULT_SUGGESTION_THRESHOLD,
  DEFAULT_FOLLOW_UP_THRESHOLD,
  type EngineOptions,
  type RunningEngine,
} from './engine.js';
export { SAMPLE_KB, SAMPLE_QUESTIONS, SAMPLE_CONVERSATIONS } from './samples.js';
