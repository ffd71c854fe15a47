import { ExamUrlForm } from '../../../features/start/components/exam-url-form.tsx';

export function StartRoute() {
  return (
    <main className="flex min-h-full items-center justify-center bg-gradient-to-b from-brand-50 to-canvas px-4 py-12">
      <ExamUrlForm />
    </main>
  );
}
