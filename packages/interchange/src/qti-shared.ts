import { type Exam } from '@exam/domain/exam';
import { type Question } from '@exam/domain/question';

/**
 * What a QTI package of the platform carries besides standard QTI 3.0 (docs/product.md#importing-and-exporting-questions):
 * fields QTI has no element for (topic, rubric and pool references, coding tests and limits, an agentic task's
 * repository, the exact Markdown source of the text). They travel as JSON in the manifest's resource metadata, which IMS Content Packaging
 * leaves open to other namespaces, so the item and test files stay plain QTI that any player reads.
 *
 * Sections (@exam/domain/sections) are the test's qti-assessment-sections, in order, with their title and their
 * own time limit as standard qti-time-limits; QTI has no element for "the assistant is available here", so each
 * section's assistant rule travels whole in the test's extension (`sections`) and each item's section in its
 * extension (`sectionId`), which is what our own import reads back.
 */
export const EXTENSION_NS = 'urn:x-exam-platform:qti-extension:1';
export const QTI_NS = 'http://www.imsglobal.org/xsd/imsqtiasi_v3p0';
export const CP_NS = 'http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1';
export const ITEM_SCHEMA = 'https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqti_asiv3p0p1_v1p0.xsd';
export const CP_SCHEMA = 'https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqtiv3p0_imscpv1p2_v1p0.xsd';
export const RP_MATCH_CORRECT = 'https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/match_correct';
export const RP_MAP_RESPONSE = 'https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/map_response';

/** The exam as a package carries it: everything a creator authors except the assistant and access secrets. */
export type ExchangeExam = Pick<
  Exam,
  | 'title'
  | 'description'
  | 'header'
  | 'rules'
  | 'timerEnabled'
  | 'timerMinutes'
  | 'fullScreenEnabled'
  | 'questionDisplay'
  | 'questions'
  | 'rubrics'
  | 'releasePolicy'
  | 'showAnswerKeys'
  | 'codingWorkspace'
  | 'opensAt'
  | 'closesAt'
  | 'attemptsAllowed'
  | 'keepGrade'
  | 'shuffleQuestions'
  | 'shuffleOptions'
  | 'access'
  | 'pools'
  | 'sections'
  | 'similarityThreshold'
>;

/** The exam-level settings that go in the test's extension (questions go in items). */
export type ExamExtension = Omit<ExchangeExam, 'questions'>;

/** The question fields that go in an item's extension. */
export const ITEM_EXTENSION_FIELDS = [
  'id',
  'content',
  'topic',
  'scoring',
  'matching',
  'rubricId',
  'poolId',
  'sectionId',
  'language',
  'starterCode',
  'tests',
  'limits',
  'setupScript',
  'referenceSolution',
  'workspaceFile',
  // An agentic task's starter repository and hidden files (coding.ts): QTI has no place for files of a task.
  'repository',
] as const satisfies ReadonlyArray<keyof Question>;
export type ItemExtension = Partial<Pick<Question, (typeof ITEM_EXTENSION_FIELDS)[number]>>;
