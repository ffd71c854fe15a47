import type { JsonSchema } from './types.ts';

/**
 * One JSON Schema (as zod's toJSONSchema writes it) made into what each provider accepts for structured output.
 * Each provider supports a different subset; a keyword it does not know is refused (OpenAI's strict mode, Gemini)
 * rather than ignored, so each conversion keeps only its provider's keywords. What a conversion drops (a string's
 * maxLength for OpenAI, say) is still enforced by the caller's own validation of the reply.
 */

const isSchema = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const mapProperties = (properties: unknown, convert: (schema: JsonSchema) => JsonSchema): JsonSchema =>
  Object.fromEntries(
    Object.entries(isSchema(properties) ? properties : {}).map(([key, value]) => [
      key,
      isSchema(value) ? convert(value) : value,
    ]),
  );

/**
 * The keywords OpenAI's strict mode supports, by the Structured Outputs guide's "Supported schemas" section
 * (platform.openai.com/docs/guides/structured-outputs): strings `pattern` and `format`; numbers `multipleOf`,
 * `minimum`, `maximum` and their exclusive forms; arrays `minItems` and `maxItems`; and the structural ones.
 */
const OPENAI_KEYWORDS = new Set([
  'type',
  'description',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  '$defs',
  '$ref',
  'pattern',
  'format',
  'multipleOf',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
]);

/**
 * The schema for OpenAI's `response_format: { type: 'json_schema', json_schema: { strict: true } }` (also Groq and
 * OpenAI-compatible servers such as vLLM): strict mode requires every object to list all its properties as
 * required and to set `additionalProperties: false`, and refuses unsupported keywords and `$schema`.
 */
export function openAiStrictSchema(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!OPENAI_KEYWORDS.has(key)) continue;
    if (key === 'properties') out.properties = mapProperties(value, openAiStrictSchema);
    else if (key === 'items' && isSchema(value)) out.items = openAiStrictSchema(value);
    else if (key === 'anyOf' && Array.isArray(value))
      out.anyOf = value.map((v: unknown) => (isSchema(v) ? openAiStrictSchema(v) : v));
    else if (key === '$defs') out.$defs = mapProperties(value, openAiStrictSchema);
    else out[key] = value;
  }
  if (isSchema(out.properties)) {
    out.required = Object.keys(out.properties);
    out.additionalProperties = false;
  }
  return out;
}

/**
 * Anthropic's tool `input_schema` takes JSON Schema as it is (the tool use guide, docs.anthropic.com); only the
 * `$schema` dialect marker is left out, as in the guide's examples.
 */
export function anthropicInputSchema(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

/**
 * The fields of Gemini's `Schema` object, "a select subset of an OpenAPI 3.0 schema object" (the Gemini API
 * reference, ai.google.dev/api/caching#Schema). No `additionalProperties`, no `$schema`, no `const`.
 */
const GEMINI_KEYWORDS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'anyOf',
  'items',
  'minimum',
  'maximum',
]);

/**
 * The schema for Gemini's `generationConfig.responseSchema`: its `Type` enum is upper case (STRING, OBJECT…), a
 * nullable type is `nullable: true` rather than `["string", "null"]`, and `propertyOrdering` fixes the order of the
 * properties in the reply (which otherwise follows no rule; the structured output guide asks for it).
 */
export function geminiResponseSchema(schema: JsonSchema): JsonSchema {
  // zod writes a nullable object as anyOf [the object, null]: Gemini says it with nullable.
  const { anyOf, ...rest } = schema;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const isNull = (s: unknown) => isSchema(s) && s.type === 'null';
    const other = anyOf.find((s) => !isNull(s));
    if (isSchema(other) && anyOf.some(isNull))
      return { ...geminiResponseSchema({ ...rest, ...other }), nullable: true };
  }
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!GEMINI_KEYWORDS.has(key)) continue;
    if (key === 'type') {
      const types = (Array.isArray(value) ? value : [value]).filter((t): t is string => typeof t === 'string');
      const concrete = types.filter((t) => t !== 'null');
      if (concrete[0]) out.type = concrete[0].toUpperCase();
      if (types.includes('null')) out.nullable = true;
    } else if (key === 'properties') {
      out.properties = mapProperties(value, geminiResponseSchema);
      out.propertyOrdering = Object.keys(out.properties as JsonSchema);
    } else if (key === 'items' && isSchema(value)) out.items = geminiResponseSchema(value);
    else if (key === 'anyOf' && Array.isArray(value))
      out.anyOf = value.map((v: unknown) => (isSchema(v) ? geminiResponseSchema(v) : v));
    else out[key] = value;
  }
  return out;
}
