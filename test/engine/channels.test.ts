import { describe, expect, it } from 'vitest';
import { createAnalyzer, splitWords } from '../../src/engine/analyzer.js';
import { createBm25 } from '../../src/engine/bm25.js';
import { charGrams } from '../../src/engine/features.js';
import { createCorrector, oneEditApart } from '../../src/engine/fuzzy.js';
import { createRetriever, parseKnowledgeBase } from '../../src/engine/index.js';

/** A knowledge base from entries given as [answer, language, examples]. */
const kbOf = (entries: [string, string, string[]][]) =>
  parseKnowledgeBase(entries.map(([answer, language, examples], i) => JSON.stringify({ sequence_number: i + 1, answer, label: `e${i + 1}`, language, examples })).join('\n'), 'kb.jsonl');

const topLabel = (retriever: ReturnType<typeof createRetriever>, question: string, language: string) => retriever.answer(question, language, 1)[0]?.entry.label;

describe('character channel', () => {
  it('cuts words into 3- to 5-letter pieces with a space at either end', () => {
    expect(charGrams(['pay'])).toEqual([' pa', 'pay', 'ay ', ' pay', 'pay ', ' pay ']);
    expect(charGrams(['a'])).toEqual([' a ']);
    // a word in a script without spaces also gives its characters and their pairs
    expect(charGrams(['天気'])).toEqual([' 天気', '天気 ', ' 天気 ', '天', '天気', '気']);
  });
});

describe('fuzzy terms', () => {
  it('tells words one edit apart: a letter dropped, added, changed, or two neighbours swapped', () => {
    expect(['bil', 'bxlx', 'billl', 'bikl', 'ibll'].map((w) => oneEditApart(w, 'bill'))).toEqual([true, false, true, true, true]);
    expect(['bills', 'bi', 'blil'].map((w) => oneEditApart(w, 'bill'))).toEqual([true, false, true]);
  });

  it('reads an unknown word as the most frequent known word one edit away, and leaves short and known words alone', () => {
    const correct = createCorrector(['meter', 'meter', 'metre', 'reading', 'bill']);
    expect(['metr', 'raeding', 'readingg', 'readin', 'bil', 'meter', 'bakery', 'm3ter'].map(correct)).toEqual(['meter', 'reading', 'reading', 'reading', 'bil', 'meter', 'bakery', 'm3ter']);
  });
});

describe('BM25', () => {
  it('scores as MiniSearch did: idf × saturated tf over fields, times the query terms matched', () => {
    const index = createBm25([[['pay', 'bill', 'bill'], []], [['meter'], ['pay']]], [1, 0.5], { k: 10, b: 0.7, d: 0 });
    const idf = Math.log(1 + (2 - 1 + 0.5) / (1 + 0.5));
    const bm = (tf: number, len: number, avg: number) => idf * ((tf * 11) / (tf + 10 * (0.3 + (0.7 * len) / avg)));
    const hits = index.search(['pay', 'bill']);
    expect(hits.map((h) => h.id)).toEqual([0, 1]);
    expect(hits[0]!.score).toBeCloseTo((bm(1, 2, 1.5) + bm(2, 2, 1.5)) * 2, 10);
    expect(hits[1]!.score).toBeCloseTo(0.5 * bm(1, 1, 0.5), 10);
    expect(index.search(['gas'])).toEqual([]);
  });
});

describe('retrieval with the word and character channels', () => {
  const en = createRetriever(kbOf([
    ['Pay by card or direct debit.', 'en', ['how can I pay my bill', 'can I pay by card', 'what are the payment methods']],
    ['Send a meter reading in the app.', 'en', ['how do I send a meter reading', 'submit my meter reading', 'where do I give my reading']],
    ['Report a power cut on 105.', 'en', ['there is a power cut', 'my electricity is off', 'no power in my street']],
  ]));

  it('answers a question with misspelt words', () => {
    expect(topLabel(en, 'how do I sned a metre raeding', 'en')).toBe('e2');
    expect(topLabel(en, 'thre is a pwoer cutt', 'en')).toBe('e3');
    expect(en.answer('how do I sned a metre raeding', 'en', 1)[0]!.score).toBeGreaterThan(50);
  });

  it('answers an inflected word in a language without a stemmer (Polish) by its pieces', () => {
    const pl = createRetriever(kbOf([
      ['Zapłać kartą.', 'pl', ['jak zapłacić rachunek', 'płatność kartą za rachunek']],
      ['Podaj odczyt licznika.', 'pl', ['jak podać odczyt licznika', 'gdzie wpisać stan licznika']],
      ['Awaria prądu: zadzwoń na 991.', 'pl', ['nie mam prądu', 'awaria prądu w domu']],
    ]));
    expect(topLabel(pl, 'zapłaciłem rachunku kartą', 'pl')).toBe('e1'); // rachunku, zapłaciłem: forms not in the examples
    expect(topLabel(pl, 'odczytu liczników', 'pl')).toBe('e2');
  });

  it('answers questions in languages without spaces (Japanese, Chinese, Thai)', () => {
    const cjk = createRetriever(kbOf([
      ['カードで支払えます。', 'ja', ['請求書の支払い方法を教えて', 'カードで払えますか']],
      ['アプリでメーターの数値を送ってください。', 'ja', ['メーターの検針値を送りたい', '検針の数値はどこで入力しますか']],
      ['可以用信用卡付款。', 'zh', ['我怎么付账单', '可以用信用卡支付吗']],
      ['请在应用里提交电表读数。', 'zh', ['我想提交电表读数', '在哪里输入电表读数']],
      ['ชำระด้วยบัตรได้', 'th', ['จะจ่ายบิลได้อย่างไร', 'จ่ายด้วยบัตรเครดิตได้ไหม']],
      ['ส่งเลขมิเตอร์ในแอป', 'th', ['ส่งเลขมิเตอร์อย่างไร', 'อยากแจ้งเลขมิเตอร์']],
    ]));
    expect(topLabel(cjk, '支払い方法は何ですか', 'ja')).toBe('e1');
    expect(topLabel(cjk, 'メーターの数値を送信したい', 'ja')).toBe('e2');
    expect(topLabel(cjk, '账单怎么付', 'zh')).toBe('e3');
    expect(topLabel(cjk, '电表读数在哪里提交', 'zh')).toBe('e4');
    expect(topLabel(cjk, 'จ่ายบิลด้วยบัตร', 'th')).toBe('e5');
    expect(topLabel(cjk, 'แจ้งเลขมิเตอร์', 'th')).toBe('e6');
  });

  it('splits unspaced scripts into words and keeps their one-character words', () => {
    expect(splitWords('東京の天気', 'ja')).toEqual(['東京', 'の', '天気']);
    expect(createAnalyzer('zh')('今天天气')).toEqual(['今天', '天气', '今天_天气']);
  });

  it('stems every language @orama/stemmers has (Portuguese, Dutch) and strips accents only off Latin letters', () => {
    expect(createAnalyzer('pt')('pagamentos')).toEqual(['pagament']);
    expect(createAnalyzer('nl')('betalingen')).toEqual(['betal']);
    expect(splitWords('Ça coûte', 'fr')).toEqual(['ca', 'coute']);
    expect(splitWords('नमस्ते', 'hi')).toEqual(['नमस्ते']);
  });
});
