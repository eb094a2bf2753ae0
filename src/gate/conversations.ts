import type { ConversationMetrics } from '../model/metrics.js';
import type { GateResult } from './gates.js';

const f3 = (v: number): string => v.toFixed(3);

/**
 * `--min-conversation-pass-rate X`: the share of conversations whose every turn passed, among those that did not end
 * in error (errors are gated apart, with --max-error-rate). Pure.
 */
export function conversationGate(conversations: ConversationMetrics | undefined, min: number): GateResult {
  const gate = '--min-conversation-pass-rate';
  const metric = 'conversationPassRate';
  const rate = conversations?.passRate;
  if (rate === undefined || rate.value === null) {
    const why = conversations ? 'every conversation ended in error' : 'the dataset holds no conversation';
    return { gate, metric, threshold: min, value: null, passed: false, message: `conversation pass rate n/a (${why}) cannot meet ${gate} ${min}` };
  }
  const value = rate.value;
  const passed = value >= min;
  const of = `${rate.successes}/${rate.n}`;
  return {
    gate,
    metric,
    threshold: min,
    value,
    passed,
    message: passed ? `conversation pass rate ${f3(value)} (${of}) >= ${gate} ${min}` : `conversation pass rate ${f3(value)} (${of}) < ${gate} ${min} (short by ${f3(min - value)})`,
  };
}
