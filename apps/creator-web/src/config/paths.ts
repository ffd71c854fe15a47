/** Every URL of the creator app, and the taker app's URLs it links to. */
export const paths = {
  home: '/',
  about: '/about',
  careers: '/careers',
  auth: '/creator/auth',
  dashboard: '/creator/dashboard',
  newExam: '/creator/new-exam',
  editExam: (examId: string, type?: 'draft' | 'published') =>
    `/creator/edit-exam/${encodeURIComponent(examId)}${type ? `?type=${type}` : ''}`,
  examPublished: (examId: string) => `/creator/exam-published/${encodeURIComponent(examId)}`,
  examInsights: (examId: string) => `/creator/exam-insights/${encodeURIComponent(examId)}`,
  examSubmissions: (examId: string) => `/creator/exam-insights/${encodeURIComponent(examId)}/submissions`,
  result: (resultId: string) => `/creator/result/${encodeURIComponent(resultId)}`,
  grade: (examId: string, candidateId: string) =>
    `/creator/grade/${encodeURIComponent(examId)}/candidate/${encodeURIComponent(candidateId)}`,
} as const;

/** Links into the taker app; its origin comes from /runtime-config.json. */
export const takerPaths = {
  start: (takerOrigin: string) => `${takerOrigin}/taker/start`,
  exam: (takerOrigin: string, examId: string) => `${takerOrigin}/exam/${encodeURIComponent(examId)}`,
  preview: (takerOrigin: string, examId: string) => `${takerOrigin}/exam/${encodeURIComponent(examId)}?creator=true`,
} as const;
