import type { CreateExam, Exam, UpdateExam } from '@exam/domain/exam';
import type { Issue } from '@exam/domain/errors';
import { paths } from '../../../../config/paths.ts';
import { i18n } from '../../../../i18n/index.ts';

/** How long the 'saved' toast shows before the editor goes back to the dashboard. */
export const SAVED_REDIRECT_DELAY_MS = 1000;

export type ExamFormAction = 'create-draft' | 'create-publish' | 'save-draft' | 'publish-draft' | 'update-published';
export type UpdateAction = Exclude<ExamFormAction, 'create-draft' | 'create-publish'>;

/** What the editor says after a write, and where it goes then. */
export type AfterWrite = { message: string; to: string; delay: number };

export const isCreateAction = (action: ExamFormAction): action is 'create-draft' | 'create-publish' =>
  action === 'create-draft' || action === 'create-publish';

export function afterCreate(isDraft: boolean, created: Exam): AfterWrite {
  return isDraft
    ? { message: i18n.t('editor:saved.draftCreated'), to: paths.dashboard, delay: SAVED_REDIRECT_DELAY_MS }
    : { message: i18n.t('editor:saved.published'), to: paths.examPublished(created.id), delay: 0 };
}

/** The body an edit sends for each action, and what follows it. */
export function planUpdate(
  action: UpdateAction,
  exam: Exam,
  fields: Omit<CreateExam, 'isDraft'>,
): AfterWrite & { body: UpdateExam } {
  if (action === 'save-draft') {
    return {
      body: { ...fields, isDraft: true },
      message: i18n.t('editor:saved.draft'),
      to: paths.dashboard,
      delay: SAVED_REDIRECT_DELAY_MS,
    };
  }
  if (action === 'publish-draft') {
    return {
      body: { ...fields, isDraft: false, isLive: true },
      message: i18n.t('editor:saved.published'),
      to: paths.examPublished(exam.id),
      delay: 0,
    };
  }
  // No isLive here: updating a published exam keeps whatever live state the creator has set.
  return {
    body: fields,
    message: i18n.t('editor:saved.publishedUpdated'),
    to: paths.dashboard,
    delay: SAVED_REDIRECT_DELAY_MS,
  };
}

const FORM_FIELDS = [
  'title',
  'description',
  'header',
  'rules',
  'timerEnabled',
  'timerMinutes',
  'fullScreenEnabled',
  'questionDisplay',
  'questions',
  'rubrics',
  'releasePolicy',
  'showAnswerKeys',
  'unansweredPolicy',
  'codingWorkspace',
  'aiSettings',
  'opensAt',
  'closesAt',
  'attemptsAllowed',
  'keepGrade',
  'sections',
  'passages',
  'practice',
  'review',
];

/** The issues of a 400 that name a field of the form, with the path the form knows them by. */
export function formIssues(issues: Issue[]): Issue[] {
  return issues
    .map((issue) => ({ ...issue, path: issue.path.replace(/^body\./, '') }))
    .filter((issue) => FORM_FIELDS.includes(issue.path.split('.')[0] ?? ''));
}
