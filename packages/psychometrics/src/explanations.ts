import { REASONING_FORMULA } from './integrity.ts';
import { FLAG_DEFAULTS, ITEM_FLAG_EXPLANATIONS } from './item-fit.ts';
import { UPLIFT_MIN_GROUP } from './uplift.ts';

const { lower, upper } = FLAG_DEFAULTS.fitRange;

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
  'item.twoPl.discrimination':
    '2PL discrimination a: how sharply the chance of answering correctly rises with ability around the question’s difficulty. About 1 is typical; below 0.35 the question barely separates candidates; negative means stronger candidates do worse.',
  'item.twoPl.difficulty':
    '2PL difficulty b in ability units (logits, θ ~ N(0, 1), logistic metric with no 1.7 constant): the ability at which a candidate has an even chance of answering correctly.',
  'item.twoPl.discriminationSe':
    'Standard error of the 2PL discrimination (from the cross-product information of the marginal likelihood).',
  'item.twoPl.difficultySe':
    'Standard error of the 2PL difficulty (delta method from the discrimination and intercept).',
  'item.fit.infit': `Infit mean square (Rasch): how well answers near the question’s difficulty follow the model; 1 is perfect. Above ${upper} the answers are erratic, below ${lower} too predictable.`,
  'item.fit.outfit': `Outfit mean square (Rasch): like infit but most sensitive to surprising answers from candidates far above or below the question’s difficulty (lucky guesses, careless slips). Acceptable range ${lower}–${upper}.`,
  'item.fit.flags':
    'What this question’s statistics suggest checking: misfit (outside the acceptable infit/outfit range, with enough answers) and negative or weak discrimination.',
  'model.chosen':
    'The model the abilities come from: Rasch (one discrimination for every question) or 2PL (a discrimination per question).',
  'model.lrt':
    'Likelihood-ratio test of one common discrimination against one per question: χ² statistic, degrees of freedom (questions − 1) and p-value. Below 0.05 the 2PL fits significantly better.',
  'item.aiReference': 'Share of candidates who sent the AI assistant a message while on this question.',
  'item.aiUplift': `AI uplift: facility (mean mark, 0–1) of the candidates who drew this question and asked the assistant about it, minus that of those who drew it and did not, with a 95% interval (Newcombe’s hybrid score method). An interval that includes 0 shows no clear difference; a large positive one suggests the assistant helps with this question. It compares groups, not causes: stronger or weaker candidates may ask more. Groups under ${UPLIFT_MIN_GROUP} get a caution.`,
  'item.scoreGroups':
    'Item characteristic curve: the candidates who drew this question, split into up to 10 groups by ability (θ of the chosen model); each point is a group’s mean ability and the share of it right (mark of at least half). Points far from the fitted curve show where the question misbehaves.',
  'item.time':
    'Time with this question on screen, over the candidates whose page reported viewing it: from the question being shown until another question is shown, the page loses focus or the exam is submitted (resuming when the page regains focus). Median and mean in seconds.',
  'topic.aiUplift':
    'AI uplift on this topic: mean mark over the topic’s questions of the candidates who asked the assistant about any of them, minus that of those who asked about none, with a 95% interval (Newcombe’s hybrid score method).',
  'overall.aiUplift':
    'AI uplift over the whole exam: mean mark of the candidates who sent the assistant any message, minus that of those who never did, with a 95% interval (Newcombe’s hybrid score method). It compares groups, not causes.',
  aiUse:
    'Messages candidates sent the AI assistant by time since each one started the exam, with how many different candidates sent them in each interval.',
  'candidate.rank':
    'Position by score: the percentage of the points, each question weighted by its points, as the results list shows it. Candidates with the same score share a rank and are listed by name.',
  'candidate.rawScore':
    'Items correct, unweighted: the questions answered right (a partial mark counts its share) as a percentage of all questions, every question counting the same whatever its points. Ungraded answers count as not yet correct. Not the score.',
  'candidate.ability':
    'Ability as a percentile: 100 × Φ(θ), the share of a standard-normal population this candidate is expected to outperform, from the chosen model (Rasch or 2PL). Harder questions answered correctly count for more than easy ones; under the 2PL, more discriminating questions count for more too.',
  'candidate.abilityTheta': 'Ability θ in logits from the chosen model (posterior mean, EAP), with its standard error.',
  'candidate.reasoning': REASONING_FORMULA,
  'candidate.timeSpent': 'Time from starting the exam to submitting it.',
  'candidate.copyWriting':
    'Share of the candidate’s written answers (short answers and code) found word for word in the AI assistant’s replies to them (runs of 5 words or more).',
  'candidate.focusPercent': 'Share of the attempt during which the exam page had focus.',
  'candidate.blockedPastes': 'Pastes from outside the exam that were blocked.',
  'candidate.badge': 'Above, in or below the band of ±15 points around the cohort average (band kept within 10–90).',
  'topic.rawScorePercent': 'Average share of this topic’s questions answered correctly.',
  'topic.abilityPercent':
    'Average ability percentile, 100 × Φ(θ), from the chosen model (Rasch or 2PL), estimated from this topic’s questions only.',
  'topic.reasoningPercent': 'Average Reasoning score on this topic’s questions.',
  'integrity.avgTimeToCompleteSeconds': 'Average time from start to submission.',
  'integrity.focusPercent': 'Average share of the attempt during which the exam page had focus.',
  'integrity.externalPasteBlocked': 'Pastes from outside the exam that were blocked, over all candidates.',
  'integrity.copyWritingPercent': 'Average copy-writing share over candidates with written answers.',
  ...Object.fromEntries(Object.entries(ITEM_FLAG_EXPLANATIONS).map(([flag, text]) => [`flag.${flag}`, text])),
};
