import { createBrowserRouter, redirect, type RouteObject } from 'react-router';
import { paths } from '../config/paths.ts';
import { setUnauthorizedHandler } from '../lib/api-client.ts';
import { AuthRoute } from './routes/auth/auth.tsx';
import { ForgotPasswordRoute } from './routes/auth/forgot-password.tsx';
import { ResetPasswordRoute } from './routes/auth/reset-password.tsx';
import { AccountRoute } from './routes/creator/account.tsx';
import { CreatorLayout, creatorGuard } from './routes/creator/creator-layout.tsx';
import { DashboardRoute } from './routes/creator/dashboard.tsx';
import { ExamPublishedRoute } from './routes/creator/exam-published.tsx';
import { AboutRoute, CareersRoute } from './routes/marketing/coming-soon.tsx';
import { LtiLaunchRoute } from './routes/lti/lti-launch.tsx';
import { SsoCallbackRoute } from './routes/auth/sso-callback.tsx';
import { LandingRoute } from './routes/marketing/landing.tsx';
import { NotFoundRoute } from './routes/marketing/not-found.tsx';

export const routes: RouteObject[] = [
  { path: paths.home, Component: LandingRoute },
  { path: paths.about, Component: AboutRoute },
  { path: paths.careers, Component: CareersRoute },
  { path: paths.auth, Component: AuthRoute },
  { path: paths.forgotPassword, Component: ForgotPasswordRoute },
  { path: paths.resetPassword, Component: ResetPasswordRoute },
  // An instructor's LMS launch: signed in (or asked to sign in) here, so outside the guarded /creator area.
  { path: paths.ltiLaunch, Component: LtiLaunchRoute },
  { path: paths.ssoCallback, Component: SsoCallbackRoute },
  // A candidate report's share link: public (the token is the credential), no app chrome, loaded when opened.
  {
    path: '/report/:token',
    lazy: async () => ({ Component: (await import('./routes/report/report.tsx')).ReportRoute }),
  },
  {
    path: '/creator',
    loader: creatorGuard,
    // The token may expire between two pages, so the guard runs on every navigation.
    shouldRevalidate: () => true,
    Component: CreatorLayout,
    children: [
      { index: true, loader: () => redirect(paths.dashboard) },
      { path: 'dashboard', Component: DashboardRoute },
      { path: 'account', Component: AccountRoute },
      {
        path: 'organization',
        lazy: async () => ({
          Component: (await import('./routes/creator/organization-settings.tsx')).OrganizationSettingsRoute,
        }),
      },
      {
        path: 'lti',
        lazy: async () => ({ Component: (await import('./routes/creator/lti-settings.tsx')).LtiSettingsRoute }),
      },
      {
        path: 'lti-deep-link',
        lazy: async () => ({ Component: (await import('./routes/creator/lti-deep-link.tsx')).LtiDeepLinkRoute }),
      },
      {
        path: 'question-bank',
        lazy: async () => ({ Component: (await import('./routes/creator/question-bank.tsx')).QuestionBankRoute }),
      },
      // The editor is the largest screen; it loads when first opened.
      {
        path: 'new-exam',
        lazy: async () => ({ Component: (await import('./routes/creator/new-exam.tsx')).NewExamRoute }),
      },
      {
        path: 'edit-exam/:examId',
        lazy: async () => ({ Component: (await import('./routes/creator/edit-exam.tsx')).EditExamRoute }),
      },
      { path: 'exam-published/:examId', Component: ExamPublishedRoute },
      {
        path: 'exam-live/:examId',
        lazy: async () => ({ Component: (await import('./routes/creator/exam-live.tsx')).ExamLiveRoute }),
      },
      {
        path: 'exam-sharing/:examId',
        lazy: async () => ({ Component: (await import('./routes/creator/exam-sharing.tsx')).ExamSharingRoute }),
      },
      {
        path: 'exam-audit/:examId',
        lazy: async () => ({ Component: (await import('./routes/creator/exam-audit.tsx')).ExamAuditRoute }),
      },
      {
        path: 'exam-roster/:examId',
        lazy: async () => ({ Component: (await import('./routes/creator/exam-roster.tsx')).ExamRosterRoute }),
      },
      // Grading and insights screens load when first opened, like the editor.
      {
        path: 'result/:resultId',
        lazy: async () => ({ Component: (await import('./routes/results/result.tsx')).ResultRoute }),
      },
      {
        path: 'candidates/:candidateId',
        lazy: async () => ({ Component: (await import('./routes/results/candidate.tsx')).CandidateRoute }),
      },
      {
        path: 'exam-insights/:examId',
        lazy: async () => ({ Component: (await import('./routes/results/exam-insights.tsx')).ExamInsightsRoute }),
      },
      {
        path: 'exam-accommodations/:examId',
        lazy: async () => ({
          Component: (await import('./routes/creator/exam-accommodations.tsx')).ExamAccommodationsRoute,
        }),
      },
      {
        path: 'exam-insights/:examId/submissions',
        lazy: async () => ({ Component: (await import('./routes/results/submissions.tsx')).SubmissionsRoute }),
      },
      {
        path: 'grade/:examId/candidate/:candidateId',
        lazy: async () => ({ Component: (await import('./routes/results/grade.tsx')).GradeRoute }),
      },
      // Grading by question: the question's number as graders read it (1 for the first), as paths.gradeQuestion writes it.
      {
        path: 'grade/:examId/question/:questionNumber',
        lazy: async () => ({ Component: (await import('./routes/results/grade-question.tsx')).GradeQuestionRoute }),
      },
      // Older grader links carry only a candidate id; they still open the grader.
      { path: 'grade/:candidateId', loader: ({ params }) => redirect(paths.grade('1', params.candidateId ?? '')) },
    ],
  },
  // The platform administrators' page (ADMIN_EMAILS) in the creator's frame; the server answers 403 to anyone else.
  {
    path: '/admin',
    loader: creatorGuard,
    shouldRevalidate: () => true,
    Component: CreatorLayout,
    children: [
      {
        path: 'status',
        lazy: async () => ({ Component: (await import('./routes/admin/platform-status.tsx')).PlatformStatusRoute }),
      },
    ],
  },
  { path: '*', Component: NotFoundRoute },
];

type AppRouter = { navigate: (to: string, options?: { replace?: boolean }) => unknown };

/** A 401 from any authenticated call drops the token (api-client) and returns to sign-in. */
export function redirectToSignInOnUnauthorized(router: AppRouter): void {
  setUnauthorizedHandler(() => void router.navigate(paths.auth, { replace: true }));
}

export function createAppRouter() {
  const router = createBrowserRouter(routes);
  redirectToSignInOnUnauthorized(router);
  return router;
}
