import { REASONING_FORMULA } from './integrity.ts';

/** Hover texts for every figure of the insights page, keyed as documented in @exam/domain/insights. */
export const INSIGHT_EXPLANATIONS: Record<string, string> = {
  'cohort.invited': 'Candidates invited to the exam.',
  'cohort.started': 'Candidates who opened the exam and started an attempt.',
  'cohort.submitted': 'Attempts submitted (by the candidate or when time ran out).',
  'cohort.graded': 'Submitted attempts with every question graded.',
  'cohort.pending': 'Submitted attempts with at least one answer waiting for a grader.',
  'test.mean': 'Average score as a percentage of the maximum score.',
  'test.median': 'Half the candidates scored below this percentage of the maximum score.',
  'test.sd':
    'Standard deviation of the scores (sample, n − 1), as a percentage of the maximum score: how spread out they are.',
  'test.skewness': 'Asymmetry of the score distribution: 0 is symmetric, negative means a tail of low scores.',
  'test.kurtosis':
    'Peakedness of the score distribution relative to a normal one (0); positive means bunched scores with long tails.',
  'test.cronbachAlpha':
    'Cronbach’s alpha (Moodle’s coefficient of internal consistency): how consistently the questions measure the same thing. Above 0.75 is satisfactory; below 0.64 the test as a whole needs work.',
  'test.errorRatio': 'Share of the score spread that is measurement error: 100 × √(1 − alpha). Below 50% is good.',
  'test.standardError':
    'Standard error of measurement: SD × √(1 − alpha), as a percentage of the maximum score. A candidate’s score is uncertain by about this much.',
  'item.facility': 'Facility index: the share of candidates who answered correctly (higher is easier).',
  'item.sd': 'Standard deviation of the marks on this question.',
  'item.discriminationIndex':
    'Discrimination index: correlation (×100) between this question and the rest of the test. Above 30% discriminates well; negative means strong candidates do worse on it.',
  'item.discriminativeEfficiency':
    'Discrimination index as a percentage of the highest one possible for a question of this facility.',
  'item.effectiveWeight':
    'How much this question actually contributes to the spread of total scores, in percent (Moodle’s effective weight).',
  'item.randomGuessScore':
    'Guessability: the expected mark from a blind guess (1 ÷ number of options for multiple choice, 0 otherwise).',
  'item.raschDifficulty':
    'Rasch difficulty in logits: the ability at which a candidate has an even chance of answering correctly. 0 is an average candidate; each ±1 is about one standard deviation of ability.',
  'item.aiReference': 'Share of candidates who sent the AI assistant a message while on this question.',
  'candidate.rank': 'Position by raw score; candidates with the same score share a rank.',
  'candidate.rawScore': 'Correct answers as a percentage of all questions (ungraded answers count as not yet correct).',
  'candidate.ability':
    'Rasch ability as a percentile: 100 × Φ(θ), the share of a standard-normal population this candidate is expected to outperform. Harder questions answered correctly count for more than easy ones.',
  'candidate.abilityTheta': 'Rasch ability θ in logits (posterior mean, EAP), with its standard error.',
  'candidate.reasoning': REASONING_FORMULA,
  'candidate.timeSpent': 'Time from starting the exam to submitting it.',
  'candidate.copyWriting':
    'Share of the candidate’s written answers (short answers and code) found word for word in the AI assistant’s replies to them (runs of 5 words or more).',
  'candidate.focusPercent': 'Share of the attempt during which the exam page had focus.',
  'candidate.blockedPastes': 'Pastes from outside the exam that were blocked.',
  'candidate.badge': 'Above, in or below the band of ±15 points around the cohort average (band kept within 10–90).',
  'topic.rawScorePercent': 'Average share of this topic’s questions answered correctly.',
  'topic.abilityPercent': 'Average Rasch ability percentile, 100 × Φ(θ), estimated from this topic’s questions only.',
  'topic.reasoningPercent': 'Average Reasoning score on this topic’s questions.',
  'integrity.avgTimeToCompleteSeconds': 'Average time from start to submission.',
  'integrity.focusPercent': 'Average share of the attempt during which the exam page had focus.',
  'integrity.externalPasteBlocked': 'Pastes from outside the exam that were blocked, over all candidates.',
  'integrity.copyWritingPercent': 'Average copy-writing share over candidates with written answers.',
};
