// What the database holds after the run, against what each simulated candidate was told: every acknowledged
// save with its latest seq, one result per attempt (the one every acknowledged submit named, holding the
// acknowledged answers), and every chat stored once with its full reply.
import postgres from 'postgres';
import type { CandidateRecord } from './candidates.ts';

export type DatabaseFindings = {
  acknowledgedSaves: number;
  lostAnswers: string[];
  submissions: number;
  submissionProblems: string[];
  unsubmitted: string[];
  chats: number;
  chatProblems: string[];
  /** Chats whose message is stored more than once (retries the gateway did not recognise). */
  duplicatedChats: string[];
  startsFailed: number;
};

function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) groups.set(key(row), [...(groups.get(key(row)) ?? []), row]);
  return groups;
}

type MessageRow = { attempt_id: string; role: string; content: string; is_error: boolean; is_partial: boolean };

export async function verifyDatabase(
  databaseUrl: string,
  records: CandidateRecord[],
  expectedReply: string,
  questionCount: number,
): Promise<DatabaseFindings> {
  const sql = postgres(databaseUrl, { max: 2, onnotice: () => {} });
  const findings: DatabaseFindings = {
    acknowledgedSaves: 0,
    lostAnswers: [],
    submissions: 0,
    submissionProblems: [],
    unsubmitted: [],
    chats: 0,
    chatProblems: [],
    duplicatedChats: [],
    startsFailed: records.filter((r) => !r.attemptId).length,
  };
  try {
    const attemptIds = records.flatMap((r) => (r.attemptId ? [r.attemptId] : []));
    const answers = await sql<{ attempt_id: string; question_index: number; answer: string; seq: string }[]>`
      select attempt_id, question_index, answer, seq from results_service.answers where attempt_id = any(${attemptIds})`;
    const results = await sql<{ id: string; attempt_id: string; grades: Array<{ answer: string | null }> }[]>`
      select id, attempt_id, grades from results_service.results where attempt_id = any(${attemptIds})`;
    const attempts = await sql<{ id: string; result_id: string | null; submitted_at: Date | null }[]>`
      select id, result_id, submitted_at from results_service.attempts where id = any(${attemptIds})`;
    const messages = await sql<MessageRow[]>`
      select attempt_id, role, content, is_error, is_partial from llm_gateway.messages
      where attempt_id = any(${attemptIds}) order by attempt_id, seq`;

    const answerOf = new Map(answers.map((a) => [`${a.attempt_id}/${a.question_index}`, a]));
    const resultsOf = groupBy(results, (r) => r.attempt_id);
    const attemptOf = new Map(attempts.map((a) => [a.id, a]));
    const messagesOf = groupBy(messages, (m) => m.attempt_id);

    for (const record of records) {
      if (!record.attemptId) continue;
      const who = `candidate ${record.index}`;
      for (const acked of record.acked.values()) {
        findings.acknowledgedSaves += 1;
        const stored = answerOf.get(`${record.attemptId}/${acked.questionIndex}`);
        // A later save the client never heard back about may have landed (a higher seq); an older one may not.
        if (!stored) findings.lostAnswers.push(`${who} q${acked.questionIndex} seq ${acked.seq}: no row`);
        else if (Number(stored.seq) < acked.seq || (Number(stored.seq) === acked.seq && stored.answer !== acked.answer))
          findings.lostAnswers.push(
            `${who} q${acked.questionIndex}: acknowledged seq ${acked.seq}, stored ${stored.seq}`,
          );
      }

      const rows = resultsOf.get(record.attemptId) ?? [];
      findings.submissions += rows.length;
      if (!record.resultIds.length) findings.unsubmitted.push(who);
      if (rows.length !== 1) findings.submissionProblems.push(`${who}: ${rows.length} results`);
      const [row] = rows;
      if (row) {
        if (record.resultIds.some((id) => id !== row.id))
          findings.submissionProblems.push(
            `${who}: acknowledged result ${record.resultIds.join(',')}, stored ${row.id}`,
          );
        if (attemptOf.get(record.attemptId)?.result_id !== row.id)
          findings.submissionProblems.push(`${who}: the attempt does not point at its result`);
        for (let q = 0; q < questionCount; q++) {
          const acked = record.acked.get(q);
          if (acked && row.grades[q]?.answer !== acked.answer)
            findings.submissionProblems.push(
              `${who} q${q}: submitted "${row.grades[q]?.answer}", acknowledged "${acked.answer}"`,
            );
        }
      }

      const transcript = messagesOf.get(record.attemptId) ?? [];
      for (const chat of record.chats) {
        findings.chats += 1;
        const positions = transcript.flatMap((m, i) => (m.role === 'user' && m.content === chat.message ? [i] : []));
        if (!chat.completed) findings.chatProblems.push(`${who}: chat ${chat.clientMessageId} never completed`);
        else if (chat.reply !== expectedReply)
          findings.chatProblems.push(`${who}: chat ${chat.clientMessageId} read "${chat.reply}"`);
        if (positions.length === 0) {
          if (chat.completed) findings.chatProblems.push(`${who}: chat ${chat.clientMessageId} not in the transcript`);
          continue;
        }
        if (positions.length > 1)
          findings.duplicatedChats.push(`${who}: ${chat.clientMessageId} stored ${positions.length}×`);
        if (!chat.completed) continue;
        // The completed reply is stored whole, right after the last copy of the message.
        const reply = transcript[positions.at(-1)! + 1];
        if (
          !reply ||
          reply.role !== 'assistant' ||
          reply.content !== expectedReply ||
          reply.is_error ||
          reply.is_partial
        )
          findings.chatProblems.push(`${who}: chat ${chat.clientMessageId} has no whole stored reply`);
      }
      const extraReplies =
        transcript.filter((m) => m.role === 'assistant').length - record.chats.filter((c) => c.completed).length;
      if (extraReplies > 0 && !findings.duplicatedChats.some((d) => d.startsWith(`${who}:`)))
        findings.duplicatedChats.push(`${who}: ${extraReplies} more stored replies than completed chats`);
    }
  } finally {
    await sql.end();
  }
  return findings;
}
