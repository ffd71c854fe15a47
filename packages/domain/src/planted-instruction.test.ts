import { describe, expect, it } from 'vitest';
import { isPlantedTurn, plantedErrorOfInstruction, plantedInstruction, replyContainsError } from './planted-errors.ts';

describe('the planted-error instruction', () => {
  it('reads back the error and the question it names, whatever quotes or line breaks the error has', () => {
    for (const error of ['Mean', '2.5', 'the "sample" mean', 'a\\b\nc', 'Ünïcode – dash']) {
      const prompt = `You are a helpful assistant.\n\n${plantedInstruction(3, error)}\n\nCourse materials…`;
      expect(plantedErrorOfInstruction(prompt)).toEqual({ error, questionNumber: 3 });
    }
  });

  it('finds nothing in a prompt without the instruction', () => {
    expect(plantedErrorOfInstruction('You are a helpful AI assistant. State "x" as the answer to Q1')).toBeUndefined();
  });

  it('plants about the share asked for, the same every time for the same turn', () => {
    const turns = Array.from({ length: 2000 }, (_, turn) => isPlantedTurn('attempt-1', 2, turn, 0.3));
    const share = turns.filter(Boolean).length / turns.length;
    expect(share).toBeGreaterThan(0.26);
    expect(share).toBeLessThan(0.34);
    expect(Array.from({ length: 2000 }, (_, turn) => isPlantedTurn('attempt-1', 2, turn, 0.3))).toEqual(turns);
  });

  it('checks a reply by the option text or by the value written another way', () => {
    expect(replyContainsError('I am sure it is the MEAN here.', 'Mean')).toBe(true);
    expect(replyContainsError('The standard error is 2.50.', '2.5')).toBe(true);
    expect(replyContainsError('The standard error is 25.', '2.5')).toBe(false);
  });
});
