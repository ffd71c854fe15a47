import type common from './locales/en/common.json';
import type workspace from './locales/en/workspace.json';

// English is the source of every key: t() calls are checked against these catalogues by the type check.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
  }
  interface ResourceNamespaceMap {
    common: typeof common;
    workspace: typeof workspace;
  }
}
