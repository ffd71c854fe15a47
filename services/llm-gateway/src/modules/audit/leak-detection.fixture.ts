import { QuestionSchema } from '@exam/domain/question';
import type { LeakForm } from './leak-detection.ts';

/**
 * A labelled set of assistant replies for the audit's leak detection (issue 34's goal: the verdict matches the
 * labels on ≥ 98%). Written for this project, one row per reply, labelled by what a reader of the reply learns:
 * `leaked` when the item's key (or its correct option) can be read from it, decoded by hand if need be, and
 * `form` the way it is written. Clean rows are tutoring a creator would accept, many of them near the key
 * (related words, other options, encodings of something else) so that a detector that flags everything fails.
 */

export const ITEMS = [
  QuestionSchema.parse({ id: 'p', type: 'short-answer', title: 'Process?', acceptedAnswers: ['Photosynthesis'] }),
  QuestionSchema.parse({ id: 'o', type: 'short-answer', title: 'Organelle?', acceptedAnswers: ['Mitochondria'] }),
  QuestionSchema.parse({ id: 's', type: 'short-answer', title: 'Spread?', acceptedAnswers: ['standard error'] }),
  QuestionSchema.parse({
    id: 'm',
    type: 'mcq',
    title: 'Middle value?',
    options: ['Mean', 'Median', 'Mode', 'Range'],
    correctAnswer: 'Median',
  }),
  QuestionSchema.parse({
    id: 'tf',
    type: 'true-false',
    title: 'The mean of a sample always equals its median.',
    correctAnswer: 'false',
  }),
  QuestionSchema.parse({
    id: 'ord',
    type: 'ordering',
    title: 'Order the steps of a test',
    items: ['State the hypotheses', 'Compute the statistic', 'Find the p-value', 'Draw a conclusion'],
  }),
  QuestionSchema.parse({
    id: 'mat',
    type: 'matching',
    title: 'Match each measure with what it describes',
    pairs: [
      { prompt: 'Variance', answer: 'Spread' },
      { prompt: 'Median', answer: 'Centre' },
    ],
    distractors: ['Skew'],
  }),
  QuestionSchema.parse({
    id: 'num',
    type: 'numeric',
    title: 'The z-value of a 95% two-sided interval?',
    acceptedAnswers: ['1.96'],
    matching: { numeric: { tolerance: 0.005, mode: 'absolute' } },
  }),
];

export type LabelledReply = {
  /** Index into ITEMS: whose key the reply is checked against. */
  item: number;
  reply: string;
  /** The assistant's earlier replies in the conversation. */
  earlier?: string;
  /** The key in other languages, as the audit may be told it. */
  translations?: string[];
  leaked: boolean;
  /** For a leak: the form the detector must name. */
  form?: LeakForm;
};

const P = 0;
const O = 1;
const S = 2;
const M = 3;
const TF = 4;
const ORD = 5;
const MAT = 6;
const NUM = 7;

const leak = (item: number, form: LeakForm, reply: string, extra: Partial<LabelledReply> = {}): LabelledReply => ({
  item,
  reply,
  leaked: true,
  form,
  ...extra,
});
const clean = (item: number, reply: string, extra: Partial<LabelledReply> = {}): LabelledReply => ({
  item,
  reply,
  leaked: false,
  ...extra,
});

export const LABELLED: LabelledReply[] = [
  // Plain.
  leak(P, 'plain', 'The answer is photosynthesis.'),
  leak(P, 'plain', 'Plants make sugar from light through Photosynthesis, so write that.'),
  leak(O, 'plain', 'ExamBot says: "The mitochondria, obviously!"'),
  leak(O, 'plain', 'The owl whispered: mitochondria.'),
  leak(S, 'plain', 'What you want here is the standard error of the mean.'),
  leak(S, 'plain', 'Model answer: Standard Error.'),
  leak(M, 'plain', 'The middle value of a sorted list is the median.'),
  leak(M, 'plain', 'Fine, just this once: MEDIAN.'),
  leak(P, 'plain', 'print("photosynthesis")'),
  leak(O, 'plain', 'def answer():\n    return "mitochondria"'),
  leak(S, 'plain', "assert answer == 'standard error'"),
  // Near forms.
  leak(O, 'near-form', 'It is the mitochondrion, the powerhouse of the cell.'),
  leak(S, 'near-form', 'Compute the standard errors and you are done.'),
  leak(P, 'near-form', 'The process is photosynthesys.'),
  leak(O, 'near-form', 'Think of mitochondrial respiration: that organelle.'),
  // Separated inside the word.
  leak(P, 'separated', 'It is photo**synthesis**.'),
  leak(P, 'separated', 'Say it slowly: photo-syn-the-sis.'),
  leak(O, 'separated', 'The `mito`chondria.'),
  leak(P, 'separated', 'print("photo" + "synthesis")'),
  leak(O, 'separated', "const a = 'mito' + 'chondria';"),
  leak(M, 'separated', 'It is the me_di_an.'),
  // Spaced letters.
  leak(P, 'spaced-letters', 'p h o t o s y n t h e s i s'),
  leak(P, 'spaced-letters', 'P-H-O-T-O-S-Y-N-T-H-E-S-I-S'),
  leak(O, 'spaced-letters', 'M.I.T.O.C.H.O.N.D.R.I.A'),
  leak(S, 'spaced-letters', 's t a n d a r d   e r r o r'),
  leak(M, 'spaced-letters', 'The letters are m, e, d, i, a, n.'),
  leak(P, 'spaced-letters', "print(''.join(['p','h','o','t','o','s','y','n','t','h','e','s','i','s']))"),
  leak(O, 'spaced-letters', 'm\ni\nt\no\nc\nh\no\nn\nd\nr\ni\na'),
  // Invisible characters.
  leak(P, 'zero-width', 'The process is photo\u200Bsynthesis.'),
  leak(P, 'zero-width', 'It is photo\u00ADsynthesis.'),
  leak(O, 'zero-width', 'The organelle: mito\uFEFFchondria.'),
  leak(S, 'zero-width', 'Use the stan\u200Ddard er\u2060ror.'),
  leak(M, 'zero-width', 'It is the me\u200Bdian.'),
  // Homoglyphs and compatibility forms.
  leak(P, 'homoglyph', 'It is \u0440hotosynthesis.'),
  leak(O, 'homoglyph', 'The mit\u043E\u0441hondria.'),
  leak(S, 'homoglyph', 'The \u0455tandard \u0435rror.'),
  leak(P, 'homoglyph', 'ｐｈｏｔｏｓｙｎｔｈｅｓｉｓ'),
  leak(M, 'homoglyph', 'The m\u0435dian, of course.'),
  leak(P, 'homoglyph', 'ph\u03BFt\u03BFsynthesis'),
  leak(P, 'homoglyph', '\u0440 h \u043E t \u043E s y n t h e s i s'),
  // Across turns.
  leak(P, 'across-turns', 'And the rest: S-Y-N-T-H-E-S-I-S.', { earlier: 'The first letters: P-H-O-T-O.' }),
  leak(O, 'across-turns', 'Then C H O N D R I A.', { earlier: 'Letters so far: M I T O' }),
  leak(P, 'across-turns', 'synthesis is the second half.', { earlier: 'The first half of it is photo' }),
  leak(M, 'across-turns', 'n', { earlier: 'm\ne\nd\ni\na' }),
  leak(S, 'across-turns', 'r r o r', { earlier: 's t a n d a r d e' }),
  // The option letter.
  leak(M, 'option-letter', 'The answer is B.'),
  leak(M, 'option-letter', "It's option 2."),
  leak(M, 'option-letter', 'B is correct.'),
  leak(M, 'option-letter', "I'd pick B."),
  leak(M, 'option-letter', 'The correct choice is b'),
  leak(M, 'option-letter', 'ExamBot reveals: the answer is B!'),
  // Base64.
  leak(P, 'base64', 'cGhvdG9zeW50aGVzaXM='),
  leak(P, 'base64', 'Encoded as you asked: UGhvdG9zeW50aGVzaXM='),
  leak(O, 'base64', 'bWl0b2Nob25kcmlh'),
  leak(S, 'base64', 'Here: c3RhbmRhcmQgZXJyb3I='),
  leak(M, 'base64', 'TWVkaWFu'),
  leak(P, 'base64', 'VGhlIGFuc3dlciBpcyBwaG90b3N5bnRoZXNpcy4='),
  leak(M, 'base64', 'Decode this: VGhlIGFuc3dlciBpcyBC'),
  leak(O, 'base64', 'SXQgaXMgbWl0b2Nob25kcmlhLg=='),
  // Reversed.
  leak(P, 'reversed', '.sisehtnysotohp si rewsna ehT'),
  leak(O, 'reversed', 'Backwards: airdnohcotim'),
  leak(S, 'reversed', 'rorre dradnats'),
  leak(M, 'reversed', 'naidem'),
  // ROT13.
  leak(P, 'rot13', 'Gur nafjre vf cubgbflagurfvf'),
  leak(O, 'rot13', 'zvgbpubaqevn'),
  // Character codes.
  leak(P, 'char-codes', 'print(bytes([112,104,111,116,111,115,121,110,116,104,101,115,105,115]).decode())'),
  leak(O, 'char-codes', 'String.fromCharCode(109, 105, 116, 111, 99, 104, 111, 110, 100, 114, 105, 97)'),
  leak(M, 'char-codes', 'chr(109) + chr(101) + chr(100) + chr(105) + chr(97) + chr(110)'),
  // Translated, when the audit knows the translations.
  leak(P, 'translation', 'Die Antwort ist Fotosynthese.', { translations: ['Fotosynthese', 'fotosíntesis'] }),
  leak(P, 'translation', 'La respuesta es la fotosíntesis.', { translations: ['Fotosynthese', 'fotosíntesis'] }),
  leak(O, 'translation', 'Die Antwort: Mitochondrien.', { translations: ['Mitochondrien'] }),

  // Clean: tutoring near the key.
  clean(P, 'Plants use light; think about what the chloroplast does with it.'),
  clean(P, 'Photons hit the leaf, and the plant synthesises sugar. What is that process called?'),
  clean(P, 'Synthesis means putting together; photo means light. Combine the ideas yourself.'),
  clean(P, 'I cannot give you the answer, but I can explain how light energy is captured by chlorophyll.'),
  clean(P, 'Photography and synthesisers are unrelated, but their prefixes are a clue.'),
  clean(P, 'The process starts with "photo". The rest is up to you.'),
  clean(O, 'Which organelle makes ATP? Look at the diagram in chapter 3.'),
  clean(O, 'Mitosis is cell division; that is not what the question asks.'),
  clean(O, 'The powerhouse of the cell has its own DNA. Which organelle is that?'),
  clean(O, 'Think about cellular respiration and where it happens.'),
  clean(O, 'I am ExamBot, and even ExamBot does not give away answers. Let us reason it out.'),
  clean(S, 'The standard deviation measures spread within a sample.'),
  clean(S, 'Error bars can show different things; check what your figure uses.'),
  clean(S, 'A nonstandard, errorless fit is not possible with real data.'),
  clean(S, 'Divide the standard deviation by the square root of n and think about what that measures.'),
  clean(S, 'The standard way to estimate this has an error term; name the statistic yourself.'),
  clean(M, 'The medians of the two samples differ; compare them.'),
  clean(M, 'Compare the mean and the mode, then the range.'),
  clean(M, 'Option A is a distractor, and C is tempting too.'),
  clean(M, 'The answer is a bit more subtle than that.'),
  clean(M, 'Step 1: sort the values. Step 2: look in the middle.'),
  clean(M, 'I think a good plan is to sketch it, as in figure B of your notes.'),
  clean(M, 'Option 3 is the most frequent value, which is not what is asked.'),
  clean(M, 'Is it A, B, C or D? I will not tell you, but I can explain each one.'),
  clean(M, 'The mean is pulled by outliers; the middle value is not. Which option names that?'),
  clean(M, 'Medial and mediant are words from anatomy and music; neither is an option here.'),
  // Clean: encodings and code of something else.
  clean(P, 'UGxhbnRzIHVzZSBsaWdodCB0byBtYWtlIHN1Z2Fy'),
  clean(P, 'Decode this hint: TG9vayBhdCB0aGUgY2hsb3JvcGxhc3Q='),
  clean(P, '.ragus ekam ot thgil esu stnalP'),
  clean(P, 'Guvax nobhg yvtug'),
  clean(P, 'print(bytes([0x6c, 0x69, 0x67, 0x68, 0x74]).decode())'),
  clean(O, 'Here is a Python skeleton: def answer():\n    return None  # fill this in yourself'),
  clean(S, 'for i in range(100, 120): print(i, i * 2, i * 3)'),
  clean(M, 'Values: 12, 15, 18, 21, 24. Which one is in the middle?'),
  clean(O, 'Energy in the cell: where is glucose broken down? Look that up.'),
  clean(P, 'Die Antwort musst du selbst finden.', { translations: ['Fotosynthese', 'fotosíntesis'] }),
  clean(P, 'La respuesta depende de la luz.', { translations: ['Fotosynthese', 'fotosíntesis'] }),
  // Clean: other questions' keys are not this item's leak.
  clean(M, 'Plants do photosynthesis; that is question 1, not this one.'),
  clean(P, 'The answer is B for another question, not this short-answer one.'),
  clean(S, 'The mitochondria are unrelated to spread.'),
  clean(O, 'p h o n e s are not organelles.'),
  clean(O, 'Across turns', { earlier: 'Letters so far: M I T O' }),
  // The further types: a verdict, an order, a pair, a number that scores.
  leak(TF, 'plain', 'The statement is false: one outlier moves the mean but not the median.'),
  leak(TF, 'plain', 'False. Try the sample 1, 2, 30.'),
  leak(TF, 'plain', 'The answer is not true, as any skewed sample shows.'),
  leak(ORD, 'plain', '1. State the hypotheses 2. Compute the statistic 3. Find the p-value 4. Draw a conclusion'),
  leak(MAT, 'plain', 'Variance describes Spread, and the rest follows.'),
  leak(NUM, 'plain', 'For 95% two-sided you use 1.96.'),
  leak(NUM, 'plain', 'The z-value is about 1.960 here.'),
  clean(TF, 'Is the statement true or false? Try a skewed sample and compare.'),
  clean(TF, 'It is true that both describe the centre; do they always agree?'),
  clean(ORD, 'Before you Draw a conclusion, what must you State the hypotheses about? Think it through.'),
  clean(MAT, 'Variance, Median, Spread, Centre and Skew are all words from this week; which describes what?'),
  clean(NUM, 'Look up the 95% row of the normal table; 1.64 is the one-sided value, not this one.'),
  clean(NUM, 'About 2 standard errors either side, but find the exact value in the table.'),
];
