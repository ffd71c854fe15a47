/** Every URL of the creator app, and the taker app's URLs it links to. */
export const paths = {
  home: '/',
  about: '/about',
  careers: '/careers',
  auth: '/creator/auth',
  forgotPassword: '/forgot-password',
  /** The link in the reset mail: `/reset-password#token=…` (the token stays out of server logs). */
  resetPassword: '/reset-password',
  dashboard: '/creator/dashboard',
  /** Where an instructor's LMS launch lands: `/lti-launch#ticket=…` (exam-service's /lti/launch sends them). */
  ltiLaunch: '/lti-launch',
  /** The deep-linking picker of an LMS launch (the ticket stays in the fragment). */
  ltiDeepLink: (ticket: string) => `/creator/lti-deep-link#ticket=${encodeURIComponent(ticket)}`,
  /** The LMS registrations (LTI 1.3) and the tool's URLs for the LMS administrator. */
  ltiSettings: '/creator/lti',
  account: '/creator/account',
  /** Where a single sign-on lands: `/sso-callback#ticket=…` or `#error=…` (exam-service's SSO callback sends it). */
  ssoCallback: '/sso-callback',
  /** The organization's members, invitations, password sign-in and single sign-on (its admins). */
  organization: '/creator/organization',
  /** The platform's status for its administrators (ADMIN_EMAILS), in the creator's frame: every service's checks. */
  adminStatus: '/admin/status',
  questionBank: '/creator/question-bank',
  newExam: '/creator/new-exam',
  editExam: (examId: string, type?: 'draft' | 'published') =>
    `/creator/edit-exam/${encodeURIComponent(examId)}${type ? `?type=${type}` : ''}`,
  examPublished: (examId: string) => `/creator/exam-published/${encodeURIComponent(examId)}`,
  examInsights: (examId: string) => `/creator/exam-insights/${encodeURIComponent(examId)}`,
  examLive: (examId: string) => `/creator/exam-live/${encodeURIComponent(examId)}`,
  examAccommodations: (examId: string) => `/creator/exam-accommodations/${encodeURIComponent(examId)}`,
  /** The exam's roster: candidates, CSV import and invitations. */
  examRoster: (examId: string) => `/creator/exam-roster/${encodeURIComponent(examId)}`,
  /** Who the exam is shared with, in which role (the owner's page). */
  examSharing: (examId: string) => `/creator/exam-sharing/${encodeURIComponent(examId)}`,
  /** Who did what to the exam and its results (the owner's page). */
  examAudit: (examId: string) => `/creator/exam-audit/${encodeURIComponent(examId)}`,
  examSubmissions: (examId: string) => `/creator/exam-insights/${encodeURIComponent(examId)}/submissions`,
  result: (resultId: string) => `/creator/result/${encodeURIComponent(resultId)}`,
  /** A candidate (by candidate ID) and their attempts across the creator's exams. */
  candidate: (candidateId: string) => `/creator/candidates/${encodeURIComponent(candidateId)}`,
  grade: (examId: string, candidateId: string) =>
    `/creator/grade/${encodeURIComponent(examId)}/candidate/${encodeURIComponent(candidateId)}`,
  /**
   * Grading by question: every candidate's answer to one question. `questionIndex` is the exam's own 0-based
   * index (the API's); the URL carries the question's number as graders read it ("Q3" is `/question/3`).
   */
  /** The candidate report a share link opens: public, no sign-in (the token is the link's only secret). */
  report: (token: string) => `/report/${encodeURIComponent(token)}`,
  gradeQuestion: (examId: string, questionIndex: number) =>
    `/creator/grade/${encodeURIComponent(examId)}/question/${questionIndex + 1}`,
} as const;

/** Links into the taker app; its origin comes from /runtime-config.json. */
export const takerPaths = {
  start: (takerOrigin: string) => `${takerOrigin}/taker/start`,
  exam: (takerOrigin: string, examId: string) => `${takerOrigin}/exam/${encodeURIComponent(examId)}`,
  /** The preview token goes in the fragment: never sent to a server, logged or passed on as Referer. */
  preview: (takerOrigin: string, examId: string, previewToken: string) =>
    `${takerOrigin}/exam/${encodeURIComponent(examId)}/preview#token=${encodeURIComponent(previewToken)}`,
} as const;

const id = encodeURIComponent;

/** The endpoints the app calls; exam-service, results-service and llm-gateway answer under one origin's /api. */
export const api = {
  login: '/api/auth/login',
  register: '/api/auth/register',
  logout: '/api/auth/logout',
  logoutAll: '/api/auth/logout-all',
  /** Whether the signed-in creator is a platform administrator; the platform's status (403 for anyone else). */
  adminMe: '/api/admin/me',
  adminStatus: '/api/admin/status',
  changePassword: '/api/auth/password',
  passwordReset: '/api/auth/password-reset',
  passwordResetConfirm: '/api/auth/password-reset/confirm',
  ssoStart: '/api/auth/sso/start',
  ssoSession: '/api/auth/sso/session',
  /** The signed-in creator's organization and role (any member); the rest is for its admins. */
  organizationMe: '/api/organization/me',
  organization: '/api/organization',
  organizationInvites: '/api/organization/invites',
  organizationInvite: (email: string) => `/api/organization/invites/${id(email)}`,
  organizationMember: (userId: string) => `/api/organization/members/${id(userId)}`,
  /** Invitations from other organizations to the signed-in creator; accepting moves their account. */
  organizationInvitations: '/api/organization/invitations',
  organizationInvitation: (organizationId: string) => `/api/organization/invitations/${id(organizationId)}`,
  acceptOrganizationInvitation: (organizationId: string) =>
    `/api/organization/invitations/${id(organizationId)}/accept`,
  organizationSso: '/api/organization/sso',
  organizationSsoDiscovery: '/api/organization/sso/discovery',
  exams: '/api/exams',
  ltiPlatforms: '/api/lti/platforms',
  ltiPlatform: (platformId: string) => `/api/lti/platforms/${id(platformId)}`,
  ltiToolConfiguration: '/api/lti/tool-configuration',
  ltiLaunchSession: '/api/lti/launches/session',
  ltiLinkAccount: '/api/lti/launches/link',
  ltiDeepLinks: '/api/lti/deep-links',
  myExams: '/api/exams/auth_exams',
  exam: (examId: string) => `/api/exams/${id(examId)}`,
  /** Per-candidate accommodations (results-service): listed, and set one candidate at a time. */
  examOverrides: (examId: string) => `/api/exams/${id(examId)}/overrides`,
  examOverride: (examId: string, studentId: string) => `/api/exams/${id(examId)}/overrides/${id(studentId)}`,
  previewToken: (examId: string) => `/api/exams/${id(examId)}/preview-token`,
  /** `model` picks the model the abilities come from; 'auto' (the likelihood-ratio choice) is the default. */
  examInsights: (examId: string, model: 'auto' | 'rasch' | '2pl' = 'auto') =>
    `/api/exams/${id(examId)}/insights${model === 'auto' ? '' : `?model=${model}`}`,
  /** The AI solvability check (llm-gateway): start, the latest run with its report, cancel. */
  solvabilityChecks: (examId: string) => `/api/exams/${id(examId)}/solvability-checks`,
  latestSolvabilityCheck: (examId: string) => `/api/exams/${id(examId)}/solvability-checks/latest`,
  cancelSolvabilityCheck: (examId: string, checkId: string) =>
    `/api/exams/${id(examId)}/solvability-checks/${id(checkId)}/cancel`,
  /** The pre-publish assistant audit (llm-gateway): estimate, start, the latest run, one run, cancel, equivalence. */
  assistantAudits: (examId: string) => `/api/exams/${id(examId)}/assistant-audits`,
  assistantAuditEstimate: (examId: string) => `/api/exams/${id(examId)}/assistant-audits/estimate`,
  latestAssistantAudit: (examId: string) => `/api/exams/${id(examId)}/assistant-audits/latest`,
  assistantAudit: (examId: string, auditId: string) => `/api/exams/${id(examId)}/assistant-audits/${id(auditId)}`,
  cancelAssistantAudit: (examId: string, auditId: string) =>
    `/api/exams/${id(examId)}/assistant-audits/${id(auditId)}/cancel`,
  auditEquivalence: (examId: string, auditId: string) =>
    `/api/exams/${id(examId)}/assistant-audits/${id(auditId)}/equivalence`,
  examSimilarity: (examId: string, threshold: number) =>
    `/api/exams/${id(examId)}/insights/similarity?threshold=${encodeURIComponent(threshold)}`,
  examResultsCsv: (examId: string) => `/api/exams/${id(examId)}/results.csv`,
  /** A candidate's data on request (exam-service, the owner only): erase, export as a ZIP, and the erasure records. */
  candidateErase: (examId: string) => `/api/exams/${id(examId)}/candidates/erase`,
  candidateExport: (examId: string, candidateId: string) =>
    `/api/exams/${id(examId)}/candidates/export?candidateId=${encodeURIComponent(candidateId)}`,
  examErasures: (examId: string) => `/api/exams/${id(examId)}/erasures`,
  importPreview: '/api/exams/import/preview',
  importQuestions: '/api/exams/import',
  examQti: (examId: string) => `/api/exams/${id(examId)}/export.qti`,
  examMoodleXml: (examId: string) => `/api/exams/${id(examId)}/export.moodle-xml`,
  /** Releases (or hides) every graded result of the exam. */
  examRelease: (examId: string) => `/api/exams/${id(examId)}/release`,
  examMembers: (examId: string) => `/api/exams/${id(examId)}/members`,
  examMember: (examId: string, creatorId: string) => `/api/exams/${id(examId)}/members/${id(creatorId)}`,
  examInvite: (examId: string, email: string) => `/api/exams/${id(examId)}/invites/${id(email)}`,
  examAudit: (examId: string, cursor?: { before: string; beforeId: string | null }) =>
    `/api/exams/${id(examId)}/audit${
      cursor
        ? `?${new URLSearchParams({ before: cursor.before, ...(cursor.beforeId && { beforeId: cursor.beforeId }) })}`
        : ''
    }`,
  roster: (examId: string) => `/api/exams/${id(examId)}/roster`,
  rosterEntry: (examId: string, entryId: string) => `/api/exams/${id(examId)}/roster/${id(entryId)}`,
  rosterImport: (examId: string) => `/api/exams/${id(examId)}/roster/import`,
  rosterAdmission: (examId: string) => `/api/exams/${id(examId)}/roster/admission`,
  /** The LMS course the exam is placed in (LTI Names and Role Provisioning): source, preview, import. */
  rosterLms: (examId: string) => `/api/exams/${id(examId)}/roster/lms`,
  rosterLmsPreview: (examId: string) => `/api/exams/${id(examId)}/roster/lms/preview`,
  rosterLmsImport: (examId: string) => `/api/exams/${id(examId)}/roster/lms/import`,
  invitations: (examId: string) => `/api/exams/${id(examId)}/invitations`,
  /** The invitation mail the same request would send, rendered; nothing is queued. */
  invitationPreview: (examId: string) => `/api/exams/${id(examId)}/invitations/preview`,
  /** Invitations sent per exam of the creator's (roster entries invited). */
  invitationCounts: '/api/exams/invitation-counts',
  attemptUnlock: '/api/attempts/unlock',
  /** The live proctor view (results-service): who is sitting the exam now, announcements, ending an attempt. */
  examLive: (examId: string) => `/api/exams/${id(examId)}/live`,
  examAnnouncements: (examId: string) => `/api/exams/${id(examId)}/announcements`,
  endAttempt: (examId: string, attemptId: string) => `/api/exams/${id(examId)}/attempts/${id(attemptId)}/end`,
  resultAnnouncements: (resultId: string) => `/api/results/${id(resultId)}/announcements`,
  examRegrade: (examId: string, dryRun: boolean) => `/api/exams/${id(examId)}/regrade?dryRun=${String(dryRun)}`,
  materials: '/api/materials',
  /** `query` is a URLSearchParams string, '' for none. */
  bankQuestions: (query = '') => `/api/bank/questions${query ? `?${query}` : ''}`,
  bankQuestion: (bankId: string) => `/api/bank/questions/${id(bankId)}`,
  /** `query` is a URLSearchParams string, '' for none. */
  results: (query: string) => `/api/results${query ? `?${query}` : ''}`,
  /** One action (score unanswered 0, release, hide) on many of the creator's results. */
  resultsBulk: '/api/results/bulk',
  resultsSummary: '/api/results/summary',
  candidateHistory: (candidateId: string) => `/api/results/candidates/${id(candidateId)}`,
  result: (resultId: string) => `/api/results/${id(resultId)}`,
  resultRelease: (resultId: string) => `/api/results/${id(resultId)}/release`,
  /** Sends a score the LMS did not take again (LTI score passback). */
  resultLmsRetry: (resultId: string) => `/api/results/${id(resultId)}/lms-sync/retry`,
  /** How the attempt came to be: edits, proctoring events, assistant turns and workspace changes in time order. */
  resultTimeline: (resultId: string) => `/api/results/${id(resultId)}/timeline`,
  /** Follow-up questions after submit: read them with their marks, mark one (n from 1). */
  resultFollowUp: (resultId: string) => `/api/results/${id(resultId)}/follow-up`,
  resultFollowUpMark: (resultId: string, n: number) => `/api/results/${id(resultId)}/follow-up/${n}/mark`,
  /** The collaboration profile: read it, ask the AI for the judged levels, set a judged level. */
  /** The candidate report's share links (the exam's owner) and the report itself (anyone with a live link). */
  resultReportLinks: (resultId: string) => `/api/results/${id(resultId)}/report-links`,
  resultReportLink: (resultId: string, linkId: string) => `/api/results/${id(resultId)}/report-links/${id(linkId)}`,
  report: (token: string) => `/api/reports/${id(token)}`,
  resultCollaboration: (resultId: string) => `/api/results/${id(resultId)}/collaboration`,
  resultCollaborationSuggestions: (resultId: string) => `/api/results/${id(resultId)}/collaboration/suggestions`,
  resultCollaborationLevel: (resultId: string, dimension: string) =>
    `/api/results/${id(resultId)}/collaboration/${id(dimension)}`,
  /** Checks a candidate's signed process receipt against this result's attempt. */
  resultReceiptVerify: (resultId: string) => `/api/results/${id(resultId)}/receipt/verify`,
  /** Grading by question (results-service); `questionIndex` is the exam's own 0-based numbering. */
  questionAnswers: (examId: string, questionIndex: number, names: boolean) =>
    `/api/exams/${id(examId)}/questions/${questionIndex}/answers?names=${String(names)}`,
  questionMarks: (examId: string, questionIndex: number) => `/api/exams/${id(examId)}/questions/${questionIndex}/marks`,
  questionDetachments: (examId: string, questionIndex: number) =>
    `/api/exams/${id(examId)}/questions/${questionIndex}/detachments`,
  /** One AI-suggested mark for one answer (a group's representative answer stands for the group). */
  resultSuggestion: (resultId: string, questionIndex: number) =>
    `/api/results/${id(resultId)}/questions/${questionIndex}/suggestion`,
  /** Suggestion batches over a question's answers: start, the latest with its progress, cancel. */
  suggestionBatches: (examId: string, questionIndex: number) =>
    `/api/exams/${id(examId)}/questions/${questionIndex}/suggestions`,
  latestSuggestionBatch: (examId: string, questionIndex: number) =>
    `/api/exams/${id(examId)}/questions/${questionIndex}/suggestions/latest`,
  cancelSuggestionBatch: (examId: string, questionIndex: number, batchId: string) =>
    `/api/exams/${id(examId)}/questions/${questionIndex}/suggestions/${id(batchId)}/cancel`,
  /** How far the AI's suggestions agree with the graders' marks, per question. */
  gradingAgreement: (examId: string) => `/api/exams/${id(examId)}/grading/agreement`,
  resultFile: (resultId: string, questionIndex: number) => `/api/results/${id(resultId)}/files/${questionIndex}`,
  /** The creator's reference solution against a coding question's tests (workspace-orchestrator's runner). */
  referenceRun: '/api/runner/reference',
  /** One of the creator's own reference runs; `waitMs` holds the request until it finishes or the wait ends. */
  runnerRun: (runId: string, waitMs: number) => `/api/runner/runs/${id(runId)}?waitMs=${waitMs}`,
  transcript: (attemptId: string) => `/api/llm/attempts/${id(attemptId)}/transcript`,
  /** Why the attempt's coding workspace did not start, if it did not (workspace-orchestrator, the exam's owner only). */
  workspaceStartFailure: (attemptId: string) => `/api/session/attempts/${id(attemptId)}/start-failure`,
  /** The assistant's spend on the exam against its exam-wide budget (llm-gateway, the owner only). */
  examAiUsage: (examId: string) => `/api/llm/exams/${id(examId)}/usage`,
  testChat: '/api/llm/test-chat',
  runtimeConfig: '/runtime-config.json',
} as const;
