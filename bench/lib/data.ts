import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const TOPICS = ['pay my bill', 'read my meter', 'report a power cut', 'move house', 'change my tariff', 'get a refund', 'close my account', 'set up direct debit'];
const FORMS = ['How do I {t}?', 'how can i {t} online', 'I need to {t}, what do I do', 'where can I {t}', 'is it possible to {t} today?'];

/** A synthetic labeled question set of `n` rows, written as CSV; returns its path. */
export function writeQuestions(dir: string, n: number): string {
  const path = join(dir, `questions-${n}.csv`);
  const lines = ['id,question,expected_sequence,expect,tags'];
  for (let i = 0; i < n; i++) {
    const topic = TOPICS[i % TOPICS.length]!;
    const form = FORMS[Math.floor(i / TOPICS.length) % FORMS.length]!;
    const oos = i % 17 === 0;
    lines.push(oos ? `q${i},what is the weather like in city ${i},,fallback,oos` : `q${i},"${form.replace('{t}', topic)} (${i})",${(i % 2) + 1},,bench`);
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}
