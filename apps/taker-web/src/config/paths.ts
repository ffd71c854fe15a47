/** Every URL of the taker app (style: one place for paths). */
export const paths = {
  home: '/',
  about: '/about',
  careers: '/careers',
  start: '/taker/start',
  credentials: '/taker/credentials',
  results: '/taker/results',
  exam: (examId: string, opts: { preview?: boolean } = {}) =>
    `/exam/${encodeURIComponent(examId)}${opts.preview ? '?creator=true' : ''}`,
  creatorAuth: (creatorOrigin: string) => `${creatorOrigin}/creator/auth`,
} as const;

export const api = {
  publicExam: (examId: string) => `/api/public/exams/${encodeURIComponent(examId)}`,
  attempts: '/api/attempts',
  attempt: (attemptId: string) => `/api/attempts/${encodeURIComponent(attemptId)}`,
  attemptExam: (attemptId: string) => `/api/attempts/${encodeURIComponent(attemptId)}/exam`,
  answer: (attemptId: string, questionIndex: number) =>
    `/api/attempts/${encodeURIComponent(attemptId)}/answers/${questionIndex}`,
  file: (attemptId: string, questionIndex: number) =>
    `/api/attempts/${encodeURIComponent(attemptId)}/files/${questionIndex}`,
  events: (attemptId: string) => `/api/attempts/${encodeURIComponent(attemptId)}/events`,
  submit: (attemptId: string) => `/api/attempts/${encodeURIComponent(attemptId)}/submit`,
  runtimeConfig: '/runtime-config.json',
} as const;
