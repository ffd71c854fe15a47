import type assistant from './locales/en/assistant.json';
import type common from './locales/en/common.json';
import type credentials from './locales/en/credentials.json';
import type exam from './locales/en/exam.json';
import type followUp from './locales/en/follow-up.json';
import type preferences from './locales/en/preferences.json';
import type questions from './locales/en/questions.json';
import type questionKinds from './locales/en/question-kinds.json';
import type results from './locales/en/results.json';
import type room from './locales/en/room.json';
import type start from './locales/en/start.json';
import type workspace from './locales/en/workspace.json';
import type workspaceAi from './locales/en/workspace-ai.json';

// English is the source of every key: t() calls are checked against these catalogues by the type check.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
  }
  interface ResourceNamespaceMap {
    assistant: typeof assistant;
    common: typeof common;
    credentials: typeof credentials;
    exam: typeof exam;
    'follow-up': typeof followUp;
    preferences: typeof preferences;
    questions: typeof questions;
    'question-kinds': typeof questionKinds;
    results: typeof results;
    room: typeof room;
    start: typeof start;
    workspace: typeof workspace;
    'workspace-ai': typeof workspaceAi;
  }
}
