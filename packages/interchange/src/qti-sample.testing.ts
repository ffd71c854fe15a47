import { ExamSchema } from '@exam/domain/exam';
import { type ExchangeExam } from './qti-shared.ts';

/** Test helper: the exam the QTI tests export, with every question type (all eleven), feedback and passages. */

/** An exam with every question type and every field the platform models, as the service stores it. */
export function sampleExam(): ExchangeExam {
  const exam = ExamSchema.parse({
    id: 'e1',
    ownerId: 'u1',
    title: 'Databases & "SQL" <midterm>',
    description: 'Covers joins.\n\nBring a pen.',
    header: 'Week 7',
    rules: 'No phones.',
    timerEnabled: true,
    timerMinutes: 45,
    fullScreenEnabled: true,
    questionDisplay: 'one',
    releasePolicy: 'immediately',
    showAnswerKeys: true,
    shuffleQuestions: true,
    shuffleOptions: true,
    attemptsAllowed: 2,
    keepGrade: 'last',
    access: 'roster',
    opensAt: '2026-01-01T09:00:00.000Z',
    closesAt: '2026-01-02T09:00:00.000Z',
    similarityThreshold: 0.7,
    codingWorkspace: {
      enabled: true,
      saveFilesInResults: false,
      workspaceType: 'vscode',
      allowPackageRegistries: true,
    },
    rubrics: [{ id: 'r1', title: 'Essay', criteria: [{ id: 'c1', description: 'Clear', points: 2 }] }],
    pools: [{ id: 'p1', title: 'Warm-up', draw: 1, points: 1 }],
    questions: [
      {
        id: 'mcq1',
        type: 'mcq',
        title: 'Pick the join',
        content: 'Which join keeps **all** rows?\n\n  indented `code`  \nline two',
        topic: 'joins',
        points: 2.5,
        options: ['INNER', 'LEFT  OUTER', 'a < b & c'],
        correctAnswer: 'a < b & c',
        poolId: null,
      },
      {
        id: 'mcq2',
        type: 'mcq',
        title: 'Pick many',
        options: ['x', 'y', 'z'],
        multipleAnswers: true,
        correctAnswers: ['x', 'z'],
        scoring: 'partial',
        points: 3,
        poolId: 'p1',
      },
      { id: 'mcq3', type: 'mcq', title: 'Opinion', options: ['a', 'b'], poolId: 'p1' },
      {
        id: 'sa1',
        type: 'short-answer',
        title: 'Pi',
        acceptedAnswers: ['3.14', 'pi'],
        matching: { caseSensitive: true, numeric: { tolerance: 0.01, mode: 'relative' } },
        rubricId: 'r1',
        points: 4,
      },
      { id: 'fu1', type: 'file-upload', title: 'Upload the diagram', content: 'PDF only', points: 5 },
      {
        id: 'c1',
        type: 'coding',
        title: 'Sum',
        language: 'python',
        starterCode: 'def add(a, b):\n    pass\n',
        referenceSolution: 'def add(a, b):\n    return a + b\n',
        tests: [
          { id: 't1', name: 'small', stdin: '1 2', expected: '3', points: 2, visible: true },
          { id: 't2', stdin: '5 5', expected: '10', comparison: 'numeric', tolerance: 0.5, points: 1 },
        ],
        limits: { cpuSeconds: 1, memoryMb: 128 },
        workspaceFile: 'q1/solution.py',
        repository: {
          files: [{ path: 'src/add.py', content: 'def add(a, b):\n    pass\n' }],
          hiddenFiles: [
            { path: 'main.py', content: 'from src.add import add\nprint(add(*map(int, input().split())))\n' },
          ],
        },
      },
      { id: 'c2', type: 'coding', title: 'Explain', language: 'sql', setupScript: 'create table t(x int);' },
      ...furtherKinds(),
    ],
    passages: [
      {
        id: 'pa-water',
        title: 'The water cycle',
        content: 'Water **evaporates** from the sea.\n\n| stage | where |\n| --- | --- |\n| rain | clouds |',
      },
      { id: 'pa-unused', title: '', content: 'A passage no question shows.' },
    ],
    aiSettings: { hasApiKey: false, apiKeyLast4: null, courseMaterials: [] },
    hasAccessCode: false,
    isLive: false,
    isDraft: true,
    publishedAt: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    lastEditedAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  });
  const { id: _i, ownerId: _o, aiSettings: _a, hasAccessCode: _h, isLive: _l, isDraft: _d, ...rest } = exam;
  const { publishedAt: _p, createdAt: _c, lastEditedAt: _e, updatedAt: _u, ...exchange } = rest;
  return exchange;
}

/** One question of each further type (question-kinds.ts), with feedback and a passage. */
function furtherKinds() {
  return [
    {
      id: 'es1',
      type: 'essay',
      title: 'Explain normalisation',
      content: 'Write about *normal forms*.',
      essay: { minWords: 50, maxWords: 300, formatted: true },
      points: 10,
      rubricId: 'r1',
    },
    {
      id: 'tf1',
      type: 'true-false',
      title: 'Rain comes from clouds',
      content: 'Rain falls from clouds.',
      correctAnswer: 'true',
      optionFeedback: ['Right: condensed vapour.', 'No: read the passage again.'],
      feedback: { general: 'See the passage.', correct: 'Well done.', partial: '', incorrect: 'Read it again.' },
      passageId: 'pa-water',
    },
    {
      id: 'ord1',
      type: 'ordering',
      title: 'Order the stages',
      items: ['evaporation', 'condensation', 'precipitation', 'collection'],
      scoring: 'partial',
      points: 3,
      passageId: 'pa-water',
    },
    { id: 'ord2', type: 'ordering', title: 'Order the numbers', items: ['one', 'two', 'three'], points: 2 },
    {
      id: 'mat1',
      type: 'matching',
      title: 'Capitals',
      pairs: [
        { prompt: 'France', answer: 'Paris' },
        { prompt: 'Japan', answer: 'Tokyo' },
        { prompt: 'Peru', answer: 'Lima' },
      ],
      distractors: ['Sydney'],
      scoring: 'partial',
      points: 3,
    },
    {
      id: 'mat2',
      type: 'matching',
      title: 'Symbols',
      pairs: [
        { prompt: 'Iron', answer: 'Fe' },
        { prompt: 'Gold', answer: 'Au' },
      ],
    },
    {
      id: 'fb1',
      type: 'fill-blanks',
      title: 'Facts',
      content: 'Fill in **each** gap.',
      gapText: 'Water boils at [[1]] °C, the capital of France is [[2]],\nand grass is [[3]].',
      blanks: [
        { kind: 'numeric', accepted: ['100'], tolerance: 0.5, weight: 2 },
        { kind: 'text', accepted: ['Paris', 'City of Light'] },
        { kind: 'choice', accepted: ['green'], options: ['red', 'green', 'blue'] },
      ],
      scoring: 'partial',
      points: 4,
      feedback: { general: '', correct: 'All right.', partial: 'Some right.', incorrect: 'None right.' },
    },
    {
      id: 'fb2',
      type: 'fill-blanks',
      title: 'Case counts',
      gapText: 'The element symbol for sodium is [[1]].',
      blanks: [{ kind: 'text', accepted: ['Na'] }],
      matching: { caseSensitive: true, numeric: null },
    },
    {
      id: 'num1',
      type: 'numeric',
      title: 'Length',
      content: 'How long is the rod?',
      acceptedAnswers: ['1.25'],
      matching: { caseSensitive: false, numeric: { tolerance: 0.01, mode: 'absolute' } },
      units: {
        units: [
          { symbol: 'm', multiplier: 1 },
          { symbol: 'cm', multiplier: 100 },
          { symbol: 'mm', multiplier: 1000 },
        ],
        required: false,
      },
      points: 2,
    },
    {
      id: 'num2',
      type: 'numeric',
      title: 'Speed',
      acceptedAnswers: ['200', '-200'],
      matching: { caseSensitive: false, numeric: { tolerance: 0.05, mode: 'relative' } },
    },
    {
      id: 'calc1',
      type: 'calculated',
      title: 'Area of {a} by {b}',
      content: 'A plate is {a} m wide and {b} m long. What is a × b + √a − 2² in m²?',
      calculated: {
        formula: 'a * b + sqrt(a) - 2^2',
        variables: [
          { name: 'a', min: 2, max: 9, decimals: 0 },
          { name: 'b', min: 1.5, max: 3.5, decimals: 1 },
        ],
        answerDecimals: 2,
      },
      matching: { caseSensitive: false, numeric: { tolerance: 0.01, mode: 'relative' } },
      units: {
        units: [
          { symbol: 'm2', multiplier: 1 },
          { symbol: 'cm2', multiplier: 10000 },
        ],
        required: true,
      },
      points: 3,
    },
    {
      id: 'calc2',
      type: 'calculated',
      title: 'Mean',
      content: 'The mean of {x} and {y}?',
      calculated: {
        formula: '(x + y) / 2 - -min(x, y) * 0',
        variables: [
          { name: 'x', min: -5, max: 5, decimals: 2 },
          { name: 'y', min: 0, max: 1, decimals: 0 },
        ],
      },
    },
  ];
}
