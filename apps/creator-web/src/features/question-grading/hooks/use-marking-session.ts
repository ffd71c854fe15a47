import { formatPoints } from '@exam/domain/grading';
import type { QuestionAnswers } from '@exam/domain/question-grading';
import { toast } from '@exam/ui/toaster';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMarkAnswers } from '../api/mark-answers.ts';
import {
  answerItems,
  filterItems,
  isUnmarked,
  itemSuggestion,
  nextUnmarked,
  type AnswerFilter,
  type AnswerItem,
} from '../lib/answer-items.ts';
import {
  draftFromSuggestion,
  draftOf,
  markOf,
  toggleCriterion,
  withPoints,
  type MarkDraft,
} from '../lib/mark-draft.ts';

/**
 * The grader's place in a question's answers and the mark being written: which item is on screen (of those the
 * filter shows), its draft, and the actions the buttons and keys share. Saving sends one request for every
 * member of the item and moves on to the next unmarked item.
 */
export function useMarkingSession(examId: string, data: QuestionAnswers, filter: AnswerFilter) {
  const { t } = useTranslation('question-grading');
  const items = useMemo(() => answerItems(data), [data]);
  const shown = useMemo(() => filterItems(items, filter), [items, filter]);
  const [currentKey, setCurrentKey] = useState<string>();
  // A new screen opens on the first answer still to mark; a key that left the filter falls back the same way.
  const item = shown.find((i) => i.key === currentKey) ?? shown.find(isUnmarked) ?? shown[0];
  const position = item ? shown.indexOf(item) : -1;
  const [edited, setEdited] = useState<{ key: string; draft: MarkDraft } | null>(null);
  const draft = item ? (edited?.key === item.key ? edited.draft : draftOf(item)) : null;
  const [invalid, setInvalid] = useState(false);
  const mark = useMarkAnswers(examId, data.questionIndex);

  const setDraft = (next: MarkDraft) => {
    if (!item) return;
    setEdited({ key: item.key, draft: next });
    setInvalid(false);
  };
  const goTo = (next: AnswerItem | undefined) => {
    if (!next) return false;
    setCurrentKey(next.key);
    setInvalid(false);
    mark.reset();
    return true;
  };
  const move = (step: 1 | -1) => goTo(shown[position + step]);

  const save = (toSave: MarkDraft | null = draft) => {
    if (!item || !toSave || mark.isPending) return false;
    const body = markOf(toSave, item, data.maxPoints);
    if (!body) {
      setInvalid(true);
      return true;
    }
    const saved = item;
    mark.mutate(body, {
      onSuccess: () => {
        const next = nextUnmarked(shown, saved.key);
        toast.success(t('session.saved', { count: body.resultIds.length }), {
          description: next ? undefined : t('session.noneLeft'),
        });
        goTo(next);
      },
    });
    return true;
  };

  const rubric = data.rubric;
  const suggestion = item ? itemSuggestion(item) : null;
  return {
    items,
    shown,
    item,
    position,
    draft,
    setDraft,
    /** The points are missing or out of range: the form says so instead of saving. */
    invalid,
    mark,
    suggestion,
    goToKey: (key: string) => setCurrentKey(key),
    next: () => move(1),
    previous: () => move(-1),
    save,
    toggleCriterion: (index: number) => {
      const criterion = rubric?.criteria[index];
      if (!rubric || !criterion || !draft) return false;
      setDraft(toggleCriterion(draft, rubric, criterion.id));
      return true;
    },
    setPoints: (points: number) => {
      if (!draft) return false;
      setDraft(withPoints(draft, formatPoints(points)));
      return true;
    },
    /** Fills the form with the suggestion; the grader changes it, or saves it as it is. */
    edit: () => {
      if (!draft || !suggestion) return false;
      setDraft(draftFromSuggestion(draft, suggestion, rubric));
      return true;
    },
    /** Takes the suggestion as it is and saves it with its id. */
    accept: () => {
      if (!draft || !suggestion?.current) return false;
      const accepted = draftFromSuggestion(draft, suggestion, rubric);
      setDraft(accepted);
      return save(accepted);
    },
  };
}

export type MarkingSession = ReturnType<typeof useMarkingSession>;
