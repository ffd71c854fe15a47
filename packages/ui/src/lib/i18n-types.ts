import type enUi from '../locales/en/ui.json';

// The shared components' namespace, typed for every app that builds its i18n with createI18n.
declare module 'i18next' {
  interface ResourceNamespaceMap {
    ui: typeof enUi;
  }
}
