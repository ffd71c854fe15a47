import type { Review, Verdict } from '@exam/domain/practice';
import { Card } from '@exam/ui/card';
import { RichText } from '@exam/ui/rich-text';
import { useTranslation } from 'react-i18next';
import { formatDateTimeWithZone, formatNumber, formatPercent } from '../../../i18n/format.ts';

type ReviewQuestion = Review['questions'][number];

const points = (value: number) => formatNumber(Math.round(value * 100) / 100);

const TONES: Record<Verdict, string> = {
  correct: 'text-success',
  partial: 'text-yellow-800',
  incorrect: 'text-danger',
  unanswered: 'text-muted',
  ungraded: 'text-muted',
};

function ReviewItem({ item, index }: { item: ReviewQuestion; index: number }) {
  const { t } = useTranslation('results');
  return (
    <li className="rounded-card border border-line p-4" aria-labelledby={`review-q-${index}`}>
      <div className="flex items-start justify-between gap-3">
        <h3 id={`review-q-${index}`} className="text-sm font-semibold text-ink">
          {t('result.question', { number: index + 1, title: item.question.title })}
        </h3>
        <span className="shrink-0 text-sm font-medium text-ink">
          {item.points === null
            ? t('result.awaitingGrading')
            : t('result.points', { points: points(item.points), max: points(item.maxPoints), count: item.maxPoints })}
        </span>
      </div>
      {item.question.content && (
        <RichText className="mt-2 text-sm text-muted" testId={`review-content-${index}`}>
          {item.question.content}
        </RichText>
      )}
      <p className={`mt-2 text-sm font-medium ${TONES[item.verdict]}`} data-testid={`review-verdict-${index}`}>
        {t(`review.verdict.${item.verdict}`)}
      </p>
      <p className="mt-2 whitespace-pre-wrap text-sm text-ink">
        <span className="text-muted">{t('result.yourAnswer')}</span>
        {item.answer.trim() === '' ? '—' : item.answer}
      </p>
      {item.graderFeedback && (
        <p className="mt-2 whitespace-pre-wrap text-sm text-ink">
          <span className="text-muted">{t('review.graderFeedback')}</span>
          {item.graderFeedback}
        </p>
      )}
      {item.feedback.length > 0 && (
        <div className="mt-2 text-sm text-ink" aria-label={t('review.feedback')} role="group">
          {item.feedback.map((text, i) => (
            <p key={i} className="whitespace-pre-wrap">
              {text}
            </p>
          ))}
        </div>
      )}
      {item.correctAnswer !== null && (
        <p className="mt-2 text-sm text-success">{t('result.correctAnswer', { answer: item.correctAnswer })}</p>
      )}
    </li>
  );
}

/** The candidate's review (docs/product.md#practice-and-review): every question with their answer, verdict and key. */
export function AttemptReview({ review }: { review: Review }) {
  const { t } = useTranslation('results');
  const total = t('result.points', {
    points: points(review.score),
    max: points(review.maxScore),
    count: review.maxScore,
  });
  return (
    <Card className="w-full max-w-3xl p-6 sm:p-8">
      <h1 className="text-2xl font-semibold text-ink">{t('review.title', { title: review.examTitle })}</h1>
      <p className="mt-2 text-lg font-medium text-ink" data-testid="review-score">
        {t('result.scoreWithPercent', { points: total, percent: formatPercent(review.percentage) })}
      </p>
      {review.closesAt && (
        <p className="mt-1 text-sm text-muted" data-testid="review-closes">
          {t('review.closesAt', { when: formatDateTimeWithZone(review.closesAt) })}
        </p>
      )}
      {review.passages.map((passage) => (
        <section
          key={passage.id}
          className="mt-4 rounded-card border border-line bg-canvas p-4"
          aria-label={passage.title}
        >
          <h2 className="text-sm font-semibold text-ink">{passage.title}</h2>
          <RichText className="mt-2 text-sm text-ink">{passage.content}</RichText>
        </section>
      ))}
      <ol className="mt-6 space-y-4">
        {review.questions.map((item, index) => (
          <ReviewItem key={item.question.id} item={item} index={index} />
        ))}
      </ol>
    </Card>
  );
}
