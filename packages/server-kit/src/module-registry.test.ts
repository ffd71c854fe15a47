import { describe, expect, it } from 'vitest';
import { createModuleRegistry } from './module-registry.ts';

type Provided = { grades: { count: number }; names: string[] };

describe('createModuleRegistry', () => {
  it('hands a provided part to the modules that use it', () => {
    const registry = createModuleRegistry<Provided>();
    const grades = { count: 3 };
    registry.provide('grades', grades);
    expect(registry.use('grades')).toBe(grades);
  });

  it('names the part used before its module registered it, and a part provided twice', () => {
    const registry = createModuleRegistry<Provided>();
    expect(() => registry.use('names')).toThrow(/names is not provided yet/);
    registry.provide('names', ['a']);
    expect(() => registry.provide('names', ['b'])).toThrow(/names is provided twice/);
    expect(registry.use('names')).toEqual(['a']);
  });
});
