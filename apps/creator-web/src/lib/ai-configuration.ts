import { AI_CATALOGUE } from '@exam/domain/ai-catalogue';
import type { AuditConfiguration } from '@exam/domain/assistant-audit';

/**
 * "OpenAI gpt-4o-mini": the provider's name from the catalogue and the model as configured. The audit and the
 * solvability check both name the configurations they compared this way.
 */
export const configurationName = (configuration: AuditConfiguration) =>
  `${AI_CATALOGUE[configuration.provider].label} ${configuration.model}`;
