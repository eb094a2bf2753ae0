import type { ConversationMetrics } from '../model/metrics.js';
import type { GateResult } from './gates.js';
import { atLeast } from './threshold.js';

/**
 * `--min-conversation-pass-rate X`: the share of conversations whose every turn passed, among those that did not end
 * in error (errors are gated apart, with --max-error-rate). Pure.
 */
export function conversationGate(conversations: ConversationMetrics | undefined, min: number): GateResult {
  const rate = conversations?.passRate;
  const value = rate?.value ?? null;
  const measure = { name: 'conversation pass rate', metric: 'conversationPassRate', flag: '--min-conversation-pass-rate', value, ...(rate ? { of: `${rate.successes}/${rate.n}` } : {}) };
  return atLeast(measure, min, conversations ? 'every conversation ended in error' : 'the dataset holds no conversation');
}
