import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { anthropicInputSchema, geminiResponseSchema, openAiStrictSchema } from './structured-output.ts';
import type { JsonSchema } from './types.ts';

const schemaOf = (zodSchema: z.ZodType) => z.toJSONSchema(zodSchema) as JsonSchema;

const Reply = z.object({
  score: z.number().min(0).max(10),
  label: z.string().max(20),
  note: z.string().optional(),
  tags: z.array(z.object({ id: z.string(), weight: z.number().nullable() })).max(5),
});

describe("OpenAI's strict json_schema", () => {
  it('requires every property, forbids extra ones at every level and drops keywords strict mode refuses', () => {
    const schema = openAiStrictSchema(schemaOf(Reply));
    expect(schema).toEqual({
      type: 'object',
      properties: {
        score: { type: 'number', minimum: 0, maximum: 10 },
        label: { type: 'string' },
        note: { type: 'string' },
        tags: {
          type: 'array',
          maxItems: 5,
          items: {
            type: 'object',
            properties: { id: { type: 'string' }, weight: { type: ['number', 'null'] } },
            required: ['id', 'weight'],
            additionalProperties: false,
          },
        },
      },
      required: ['score', 'label', 'note', 'tags'],
      additionalProperties: false,
    });
  });
});

describe("Anthropic's tool input_schema", () => {
  it('keeps the JSON Schema as it is, without the $schema dialect marker', () => {
    const original = schemaOf(Reply);
    const { $schema: _dialect, ...rest } = original;
    expect(original.$schema).toBeDefined();
    expect(anthropicInputSchema(original)).toEqual(rest);
  });
});

describe("Gemini's responseSchema", () => {
  it('writes the OpenAPI subset: upper-case types, nullable, property ordering, no additionalProperties', () => {
    const schema = geminiResponseSchema(schemaOf(Reply));
    expect(schema).toEqual({
      type: 'OBJECT',
      properties: {
        score: { type: 'NUMBER', minimum: 0, maximum: 10 },
        label: { type: 'STRING', maxLength: 20 },
        note: { type: 'STRING' },
        tags: {
          type: 'ARRAY',
          maxItems: 5,
          items: {
            type: 'OBJECT',
            properties: { id: { type: 'STRING' }, weight: { type: 'NUMBER', nullable: true } },
            propertyOrdering: ['id', 'weight'],
            required: ['id', 'weight'],
          },
        },
      },
      propertyOrdering: ['score', 'label', 'note', 'tags'],
      required: ['score', 'label', 'tags'],
    });
  });

  it('turns a type list with null into its type and nullable: true', () => {
    expect(geminiResponseSchema({ type: ['string', 'null'], description: 'd' })).toEqual({
      type: 'STRING',
      nullable: true,
      description: 'd',
    });
  });

  it('turns anyOf [a schema, null] into that schema with nullable: true', () => {
    const schema = geminiResponseSchema(schemaOf(z.object({ child: z.object({ a: z.string() }).nullable() })));
    expect(schema.properties).toEqual({
      child: {
        type: 'OBJECT',
        properties: { a: { type: 'STRING' } },
        propertyOrdering: ['a'],
        required: ['a'],
        nullable: true,
      },
    });
  });
});
