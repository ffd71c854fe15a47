import type accommodations from './locales/en/accommodations.json';
import type admin from './locales/en/admin.json';
import type assistant from './locales/en/assistant.json';
import type audit from './locales/en/audit.json';
import type auth from './locales/en/auth.json';
import type bank from './locales/en/bank.json';
import type candidates from './locales/en/candidates.json';
import type collaboration from './locales/en/collaboration.json';
import type common from './locales/en/common.json';
import type workspace from './locales/en/workspace.json';
import type dashboard from './locales/en/dashboard.json';
import type editor from './locales/en/editor.json';
import type exams from './locales/en/exams.json';
import type grading from './locales/en/grading.json';
import type insights from './locales/en/insights.json';
import type live from './locales/en/live.json';
import type answerProcess from './locales/en/process.json';
import type lti from './locales/en/lti.json';
import type organization from './locales/en/organization.json';
import type questionGrading from './locales/en/question-grading.json';
import type questionKinds from './locales/en/question-kinds.json';
import type reports from './locales/en/reports.json';
import type results from './locales/en/results.json';
import type roster from './locales/en/roster.json';
import type sharing from './locales/en/sharing.json';

// English is the source of every key: t() calls are checked against these catalogues by the type check.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
  }
  interface ResourceNamespaceMap {
    accommodations: typeof accommodations;
    admin: typeof admin;
    assistant: typeof assistant;
    audit: typeof audit;
    auth: typeof auth;
    bank: typeof bank;
    candidates: typeof candidates;
    collaboration: typeof collaboration;
    common: typeof common;
    workspace: typeof workspace;
    dashboard: typeof dashboard;
    editor: typeof editor;
    exams: typeof exams;
    grading: typeof grading;
    insights: typeof insights;
    live: typeof live;
    process: typeof answerProcess;
    lti: typeof lti;
    organization: typeof organization;
    'question-grading': typeof questionGrading;
    'question-kinds': typeof questionKinds;
    reports: typeof reports;
    results: typeof results;
    roster: typeof roster;
    sharing: typeof sharing;
  }
}
