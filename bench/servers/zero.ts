// A spec server with zero latency, in its own process: the throughput benchmark's target.
// Answers every POST /api/v1/answer with one fixed, spec-shaped body; prints its port on stdout.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const flags = { is_agent_answer: 'true', is_dummy_answer: 'false', is_dummy_floor_answer: 'false', is_suggestion_answer: 'false', is_international_question: 'false', is_dialog_in_progress: 'false', is_dialogue_answer: 'false', delay: '-1' };
const body = JSON.stringify({
  answers: [
    { answer: 'You can pay your bill by card, bank transfer or direct debit.', sequence_number: '1', answer_score: '87', tags: 'billing|payments', label: 'pay_bill', category: 'billing', ...flags },
    { answer: 'Your meter is read every three months.', sequence_number: '2', answer_score: '41', tags: 'meter', label: 'meter_reading', category: 'meter', ...flags, is_suggestion_answer: 'true' },
  ],
});

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
process.on('SIGTERM', () => process.exit(0));
