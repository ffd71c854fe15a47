import { type Exam } from '@exam/domain/exam';
import { type Passage } from '@exam/domain/passages';
import { type Question } from '@exam/domain/question';

/**
 * What a QTI package of the platform carries besides standard QTI 3.0 (docs/product.md#importing-and-exporting-questions):
 * fields QTI has no element for (topic, rubric and pool references, coding tests and limits, an agentic task's
 * repository, the exact Markdown source of texts QTI carries as XHTML, a formula's source as written). They travel
 * as one JSON file of our own (EXTENSION_FILE), listed in the manifest as a resource of its own that the test
 * depends on: IMS Content Packaging's schema forbids foreign elements in a resource's <metadata>, and a file is
 * allowed anywhere. Everything a QTI player needs to show and score an item is standard QTI in the item itself;
 * the file only lets our own import give back exactly what was authored.
 *
 * Sections (@exam/domain/sections) are the test's qti-assessment-sections, in order, with their title and their
 * own time limit as standard qti-time-limits; QTI has no element for "the assistant is available here", so each
 * section's assistant rule travels whole in the extension's exam settings (`sections`) and each item's section in
 * its item entry (`sectionId`), which is what our own import reads back.
 */
export const EXTENSION_FILE = 'exam-platform/extension.json';
export const EXTENSION_RESOURCE = 'exam-platform-extension';
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
  | 'passages'
  | 'practice'
  | 'review'
>;

/** The exam-level settings that go in the extension (questions go in items, passages in stimuli). */
export type ExamExtension = Omit<ExchangeExam, 'questions' | 'passages'>;

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
  // The languages a candidate may choose and their starter code: QTI's item has one response language.
  'languages',
  'starterCodes',
  // An agentic task's starter repository and hidden files (coding.ts): QTI has no place for files of a task.
  'repository',
  // The platform's own type where QTI's reading is ambiguous (a short answer compared as a number is a float text
  // entry, which a reader takes for a numeric question), and exact sources QTI carries rendered: the gaps' Markdown,
  // the formula as written (QTI carries its expression tree), the passage's id (QTI carries a stimulus reference).
  'type',
  'gapText',
  'calculated',
  'passageId',
  // A short answer compared as a number may list answers that are not numbers (never matched); a float entry cannot hold them.
  'acceptedAnswers',
  // Word limits: QTI's extended text has only a box size (expected-lines), not a count of words.
  'essay',
] as const satisfies ReadonlyArray<keyof Question>;
export type ItemExtension = Partial<Pick<Question, (typeof ITEM_EXTENSION_FIELDS)[number]>>;

/** EXTENSION_FILE's content: the exam's settings, each item's entry by the item's identifier, and the passages. */
export type ExtensionFile = {
  exam: ExamExtension;
  items: Record<string, ItemExtension>;
  passages: Passage[];
};
