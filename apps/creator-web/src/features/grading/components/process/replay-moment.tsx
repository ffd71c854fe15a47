import { cn } from '@exam/ui/lib/cn';
import { useTranslation } from 'react-i18next';
import { answerAt, fileAt, type AnswerAt, type AnswerTrack, type FileTrack } from '../../lib/replay-model.ts';
import { useExamNumber } from '../question-numbering.tsx';

function AnswerAtMoment({ track, state, latest }: { track: AnswerTrack; state: AnswerAt; latest: boolean }) {
  const { t: tr } = useTranslation('process');
  const { text, recent } = state;
  const number = useExamNumber()(track.questionIndex);
  return (
    <section
      aria-label={tr('replay.answerAt', { n: number })}
      className={cn('rounded-md border p-3', latest ? 'border-brand-500' : 'border-line')}
    >
      <h4 className="mb-1 flex items-center gap-2 text-sm font-semibold text-ink">
        {tr('replay.questionN', { n: number })}
        {latest && (
          <span className="rounded-full bg-brand-50 px-2 text-xs font-medium text-brand-700">
            {tr('replay.latestEdit')}
          </span>
        )}
      </h4>
      {track.failed && <p className="mb-1 text-xs text-muted">{tr('replay.failedAnswer')}</p>}
      <pre
        data-testid={`replay-answer-${track.questionIndex}`}
        className="max-h-72 overflow-y-auto whitespace-pre-wrap break-words font-sans text-sm text-ink"
      >
        {text === '' ? (
          <span className="italic text-muted">{tr('replay.emptyAnswer')}</span>
        ) : recent ? (
          <>
            {text.slice(0, recent.from)}
            <mark className="rounded-sm bg-brand-100 text-ink">{text.slice(recent.from, recent.to)}</mark>
            {text.slice(recent.to)}
          </>
        ) : (
          text
        )}
      </pre>
    </section>
  );
}

function FileAtMoment({ track, t }: { track: FileTrack; t: number }) {
  const { t: tr } = useTranslation('process');
  const file = fileAt(track, t);
  const existed = track.changes.some((change) => change.t <= t);
  return (
    <details className="rounded-md border border-line" open={file !== null}>
      <summary className="cursor-pointer px-3 py-2 font-mono text-sm text-ink">
        {track.path}
        {!file && ' '}
        {!file && (
          <span className="ml-2 font-sans text-xs text-muted">
            {existed ? tr('replay.deleted') : tr('replay.notCreatedYet')}
          </span>
        )}
      </summary>
      {file && (
        <pre
          data-testid={`replay-file-${track.path}`}
          className="max-h-72 overflow-auto border-t border-line bg-canvas p-3 font-mono text-xs text-ink"
        >
          {file.content}
        </pre>
      )}
    </details>
  );
}

/** Every answer and workspace file as it was at `t`, the answer edited most lately marked. */
export function ReplayMoment({ answers, files, t }: { answers: AnswerTrack[]; files: FileTrack[]; t: number }) {
  const { t: tr } = useTranslation('process');
  const numberOf = useExamNumber();
  // The answers in the exam's order, as the result page lists its questions.
  const ordered = [...answers].sort((a, b) => numberOf(a.questionIndex) - numberOf(b.questionIndex));
  const states = ordered.map((track) => answerAt(track, t));
  const latest = Math.max(-1, ...states.map((state) => state.changedAt ?? -1));
  return (
    <div className="flex flex-col gap-4">
      <div>
        <h3 className="mb-2 text-sm font-semibold text-ink">{tr('replay.answersAt')}</h3>
        <div className="flex flex-col gap-3">
          {ordered.map((track, i) => (
            <AnswerAtMoment
              key={track.questionIndex}
              track={track}
              state={states[i]!}
              latest={latest >= 0 && states[i]!.changedAt === latest}
            />
          ))}
        </div>
      </div>
      {files.length > 0 && (
        <div>
          <h3 className="mb-2 text-sm font-semibold text-ink">{tr('replay.filesAt')}</h3>
          <div className="flex flex-col gap-2">
            {files.map((track) => (
              <FileAtMoment key={track.path} track={track} t={t} />
            ))}
          </div>
        </div>
      )}
    </div>
  );
}
