import type { PublicExam } from '@exam/domain/public-exam';
import type { SectionState } from '@exam/domain/sections';
import { toast } from '@exam/ui/toaster';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { i18n } from '../../../i18n/index.ts';
import { updateStoredAttempt, type TakerDb } from '../../../lib/taker-db.ts';
import { advanceSection, readSectionProgress } from '../api/sections.ts';
import {
  lockedQuestions,
  previewExamAt,
  previewPosition,
  sectionGroups,
  type SectionPosition,
} from '../lib/section-view.ts';

/** Re-reads after a section's deadline until the server has moved on too (its clock may be a little behind). */
const TIME_UP_RETRY_MS = 2_000;
const TIME_UP_RETRIES = 5;

type Options = {
  exam: PublicExam;
  attempt: { examId: string; attemptId: string; token: string } | null;
  db: TakerDb | null;
  preview: boolean;
  /** The attempt's section as the server last said (null: no sections, a preview, or not known on this device). */
  initial: SectionState | null;
  clockOffsetMs: number;
  /** Sends what the candidate typed before a move locks the section it is in. */
  flush: () => Promise<unknown>;
  /** The last section's own time ran out: the candidate's time is up (the page submits). */
  onTimeUp: () => void;
};

/**
 * The candidate's place among the exam's sections (docs/product.md#sections): the exam as far as they have
 * reached, which sections are locked, whether the assistant answers, and the move to the next section. The server
 * decides all of it (results-service); the page reads it again after a move, at a section's deadline and when a
 * save is refused for its section. A preview keeps its place in the page, with the same rules and no clock.
 */
export function useSections({ exam: loaded, attempt, db, preview, initial, clockOffsetMs, flush, onTimeUp }: Options) {
  const [view, setView] = useState({ exam: loaded, section: initial });
  const [previewAt, setPreviewAt] = useState(0);
  const [moving, setMoving] = useState(false);
  const sections = view.exam.sections;
  const hasSections = sections.length > 0;
  const exam = useMemo(() => (preview ? previewExamAt(loaded, previewAt) : view.exam), [preview, loaded, previewAt, view.exam]);
  const position = useMemo<SectionPosition | null>(() => {
    if (!hasSections) return null;
    if (preview) return previewPosition(sections, previewAt);
    // Not known on this device (opened offline): the first section, until the server says more.
    return view.section ?? previewPosition(sections, 0);
  }, [hasSections, preview, sections, previewAt, view.section]);

  const attemptRef = useRef(attempt);
  useEffect(() => {
    attemptRef.current = attempt;
  }, [attempt]);

  /** Reads where the attempt is and the questions it has reached; the section's index it is in now. */
  const refresh = useCallback(async (): Promise<number | null> => {
    const current = attemptRef.current;
    if (!current) return null;
    const next = await readSectionProgress(current);
    setView(next);
    if (db) await updateStoredAttempt(db, current.examId, next);
    return next.section?.current ?? null;
  }, [db]);

  const refreshQuietly = useCallback(
    () => void refresh().catch((error: unknown) => console.error('Could not read the section', error)),
    [refresh],
  );

  const advance = useCallback(async () => {
    if (!position) return;
    if (preview) {
      setPreviewAt((at) => Math.min(at + 1, sections.length - 1));
      return;
    }
    const current = attemptRef.current;
    if (!current) return;
    setMoving(true);
    try {
      await flush();
      await advanceSection(current, position.current);
      await refresh();
    } finally {
      setMoving(false);
    }
  }, [position, preview, sections.length, flush, refresh]);

  // A section with its own time limit ends by itself: the page moves on at the deadline (server's clock).
  const deadline = preview ? null : (position?.deadline ?? null);
  const isLast = position !== null && position.current >= sections.length - 1;
  const timeUpRef = useRef(onTimeUp);
  useEffect(() => {
    timeUpRef.current = onTimeUp;
  }, [onTimeUp]);
  useEffect(() => {
    if (!deadline || !position) return;
    const from = position.current;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let cancelled = false;
    const retry = (left: number) => {
      void refresh()
        .then((at) => {
          if (!cancelled && at === from && left > 0) timer = setTimeout(() => retry(left - 1), TIME_UP_RETRY_MS);
        })
        .catch((error: unknown) => console.error('Could not read the section after its time ran out', error));
    };
    const expire = () => {
      if (isLast) return timeUpRef.current();
      toast.info(i18n.t('room:sections.timeUp'), { id: 'section-time-up' });
      retry(TIME_UP_RETRIES);
    };
    const wait = Date.parse(deadline) - (Date.now() + clockOffsetMs);
    timer = setTimeout(expire, Math.max(0, Math.min(wait, 2 ** 31 - 1)));
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [deadline, position, isLast, clockOffsetMs, refresh]);

  const groups = useMemo(() => (position ? sectionGroups(exam, position) : []), [exam, position]);
  const locked = useMemo(() => (position ? lockedQuestions(exam, position) : new Set<number>()), [exam, position]);
  return {
    exam,
    position,
    groups,
    locked,
    isLast,
    moving,
    /** Whether the assistant answers now: off only in a section without it. */
    assistantOff: position !== null && !position.assistant,
    advance,
    refresh: refreshQuietly,
  };
}

export type SectionsControl = ReturnType<typeof useSections>;
