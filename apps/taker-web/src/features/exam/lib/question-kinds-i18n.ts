import english from '../../../i18n/locales/en/question-kinds.json';
import { i18n } from '../../../i18n/index.ts';

/**
 * The strings of the further question types' inputs and of shared passages travel with their chunk
 * (components/question-kinds.tsx; i18n/index.ts leaves them out of the first script), so an exam of multiple
 * choice and short answers loads none of them. Other languages bring theirs with their own catalogues.
 */
if (!i18n.hasResourceBundle('en', 'question-kinds'))
  i18n.addResourceBundle('en', 'question-kinds', english, true, false);
