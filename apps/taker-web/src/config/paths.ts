/** Every URL of the taker app, in one place. */
export const paths = {
  home: '/',
  about: '/about',
  careers: '/careers',
  start: '/taker/start',
  credentials: '/taker/credentials',
  results: '/taker/results',
  /** The candidate's released result, readable on the device that took the exam. */
  result: (attemptId: string) => `/taker/results/${encodeURIComponent(attemptId)}`,
  resultPattern: '/taker/results/:attemptId',
  /** The candidate's review of a submitted attempt (docs/product.md#practice-and-review), on the same device. */
  review: (attemptId: string) => `/taker/review/${encodeURIComponent(attemptId)}`,
  reviewPattern: '/taker/review/:attemptId',
  exam: (examId: string) => `/exam/${encodeURIComponent(examId)}`,
  examPattern: '/exam/:examId',
  /** The follow-up questions after submit (docs/product.md "Follow-up questions"); the exam page sends a resume here. */
  followUp: (examId: string) => `/exam/${encodeURIComponent(examId)}/follow-up`,
  followUpPattern: '/exam/:examId/follow-up',
  /** The creator's preview; the creator app puts the preview token in the fragment (#token=…). */
  preview: (examId: string) => `/exam/${encodeURIComponent(examId)}/preview`,
  previewPattern: '/exam/:examId/preview',
  creatorAuth: (creatorOrigin: string) => `${creatorOrigin}/creator/auth`,
} as const;

/** The endpoints the app calls; every service answers under this origin's /api. */
export const api = {
  publicExam: (examId: string) => `/api/public/exams/${encodeURIComponent(examId)}`,
  /** The identity a roster candidate's personal invitation link fills in. */
  invitation: (examId: string, token: string) =>
    `/api/public/exams/${encodeURIComponent(examId)}/invitations/${encodeURIComponent(token)}`,
  /** The exam with its questions, for the bearer of the owner's preview token only. */
  previewExam: (examId: string) => `/api/public/exams/${encodeURIComponent(examId)}/preview`,
  attempts: '/api/attempts',
  /** What the candidate is told before Start, for them (extra time, window, attempts left); creates nothing. */
  briefing: '/api/attempts/briefing',
  attempt: (attemptId: string) => `/api/attempts/${encodeURIComponent(attemptId)}`,
  attemptExam: (attemptId: string) => `/api/attempts/${encodeURIComponent(attemptId)}/exam`,
  /** Leaves the current section for the next (idempotent by `from`); answers the new SectionState. */
  advanceSection: (attemptId: string) => `/api/attempts/${encodeURIComponent(attemptId)}/sections/advance`,
  /** Polled while the exam is open: announcements, the current deadline, and whether the examiner ended it. */
  attemptLive: (attemptId: string) => `/api/attempts/${encodeURIComponent(attemptId)}/live`,
  answer: (attemptId: string, questionIndex: number) =>
    `/api/attempts/${encodeURIComponent(attemptId)}/answers/${questionIndex}`,
  file: (attemptId: string, questionIndex: number) =>
    `/api/attempts/${encodeURIComponent(attemptId)}/files/${questionIndex}`,
  events: (attemptId: string) => `/api/attempts/${encodeURIComponent(attemptId)}/events`,
  /** Runs the visible tests of a coding question against the code sent (results-service, attempt token). */
  testRuns: (attemptId: string, questionIndex: number) =>
    `/api/attempts/${encodeURIComponent(attemptId)}/questions/${questionIndex}/test-runs`,
  /** One of the attempt's test runs; `waitMs` holds the request until it finishes or the wait ends. */
  testRun: (attemptId: string, runId: string, waitMs: number) =>
    `/api/attempts/${encodeURIComponent(attemptId)}/test-runs/${encodeURIComponent(runId)}?waitMs=${waitMs}`,
  /** The candidate's choice of language for a coding question that offers several, and all their choices. */
  language: (attemptId: string, questionIndex: number) =>
    `/api/attempts/${encodeURIComponent(attemptId)}/questions/${questionIndex}/language`,
  languages: (attemptId: string) => `/api/attempts/${encodeURIComponent(attemptId)}/languages`,
  /** Runs a coding question's code on the candidate's own input (results-service, attempt token). */
  consoleRuns: (attemptId: string, questionIndex: number) =>
    `/api/attempts/${encodeURIComponent(attemptId)}/questions/${questionIndex}/console-runs`,
  consoleRun: (attemptId: string, runId: string, waitMs: number) =>
    `/api/attempts/${encodeURIComponent(attemptId)}/console-runs/${encodeURIComponent(runId)}?waitMs=${waitMs}`,
  submit: (attemptId: string) => `/api/attempts/${encodeURIComponent(attemptId)}/submit`,
  /** Follow-up questions after submit (results-service, attempt token): the state, start, a draft, an answer. */
  followUp: (attemptId: string) => `/api/attempts/${encodeURIComponent(attemptId)}/follow-up`,
  followUpStart: (attemptId: string) => `/api/attempts/${encodeURIComponent(attemptId)}/follow-up/start`,
  followUpAnswer: (attemptId: string, n: number) =>
    `/api/attempts/${encodeURIComponent(attemptId)}/follow-up/${n}/answer`,
  followUpSubmit: (attemptId: string, n: number) =>
    `/api/attempts/${encodeURIComponent(attemptId)}/follow-up/${n}/submit`,
  /** The candidate's own result, as the exam's release policy allows (403 with the reason until then). */
  result: (attemptId: string) => `/api/attempts/${encodeURIComponent(attemptId)}/result`,
  /** A practice exam: saves the answer and answers its verdict and the creator's feedback (attempt token). */
  checkAnswer: (attemptId: string, questionIndex: number) =>
    `/api/attempts/${encodeURIComponent(attemptId)}/questions/${questionIndex}/check`,
  /** The candidate's review, while the exam's review window is open (403 with the reason otherwise). */
  review: (attemptId: string) => `/api/attempts/${encodeURIComponent(attemptId)}/review`,
  /** After submitting: the candidate's own process summary and its signed receipt (attempt token). */
  receipt: (attemptId: string) => `/api/attempts/${encodeURIComponent(attemptId)}/receipt`,
  /** The orchestrator's candidate endpoints (services/workspace-orchestrator, attempt token). */
  createSession: '/api/session/create',
  sessions: '/api/sessions',
  session: (sessionId: string) => `/api/session/${encodeURIComponent(sessionId)}`,
  /** The page-close variant: a POST whose plain-text body is the attempt token (beacons cannot set headers). */
  endSessionBeacon: (sessionId: string) => `/api/session/${encodeURIComponent(sessionId)}/end`,
  /** A one-time address of the session's editor on WORKSPACE_ORIGIN (the frame's source; opening it sets the cookie). */
  launchEditor: (sessionId: string) => `/api/session/${encodeURIComponent(sessionId)}/launch`,
  /** The gateway's candidate endpoints (services/llm-gateway, attempt token). */
  transcript: '/api/llm/transcript',
  chat: '/api/llm/chat',
  runtimeConfig: '/runtime-config.json',
} as const;
