import { maskOf, tooShort } from '../client/secrets/secrets.js';
import type { Supplied } from '../client/secrets/supplied.js';
import type { KnowledgeBase } from '../engine/kb.js';
import type { Question } from '../model/question.js';

/**
 * Where the run's secrets occur in the text the user gave it (the dataset's questions and expectations, the knowledge
 * base): such a secret is an ordinary word or text of the service's domain (`bill`), so masking it rewrites the
 * service's answers wherever they hold it. The run says so once, before it asks (see warnings). The dataset's own text
 * is never masked: the reports write it as the user wrote it.
 */
export class SecretSightings {
  readonly #secrets: Supplied[];
  readonly #seen = new Map<string, { kind: Supplied['kind']; first: string[]; last: string; count: number }>();

  constructor(secrets: readonly Supplied[]) {
    this.#secrets = secrets.filter((s) => !tooShort(s.value)); // those are not masked: nothing is rewritten
  }

  /** Looks for the secrets in a question's text and expectations. */
  question(q: Question, file: string): void {
    if (this.#secrets.length === 0) return;
    const texts = [q.question, ...Object.values(q.expected).flatMap((v) => v ?? [])];
    this.#look(texts, `${file}:${q.line}`);
  }

  /** Looks for the secrets in every text of a knowledge base's entries. */
  knowledgeBase(kb: KnowledgeBase): void {
    if (this.#secrets.length === 0) return;
    for (const e of kb.entries) {
      this.#look([e.answer, e.theme, e.context, e.snippet, e.label, e.category, e.subCategory, ...e.tags, ...e.examples], `${kb.file}:${e.line}`);
    }
  }

  #look(texts: readonly (string | undefined)[], where: string): void {
    for (const secret of this.#secrets) {
      if (!texts.some((t) => t?.includes(secret.value))) continue;
      const seen = this.#seen.get(secret.name) ?? { kind: secret.kind, first: [], last: '', count: 0 };
      if (seen.last === where) continue; // another query value in the same place
      if (seen.first.length < 3) seen.first.push(where);
      seen.last = where;
      seen.count++;
      this.#seen.set(secret.name, seen);
    }
  }

  /** One warning for each secret found, naming where (never quoting it). */
  warnings(): string[] {
    return [...this.#seen].map(([name, { kind, first, count }]) => {
      const more = count > first.length ? ` and ${count - first.length} more` : '';
      return (
        `${name} occurs in the text the run was given (${first.join(', ')}${more}): an ordinary word there, so ` +
        `${maskOf(kind)} replaces it wherever the service's answers hold it, in the journal and the reports ` +
        "(the answers are judged as sent: no verdict changes); the dataset's own text is written as it is, this secret included. " +
        'A secret found in neither the dataset nor the knowledge base is masked without rewriting anything else'
      );
    });
  }
}
