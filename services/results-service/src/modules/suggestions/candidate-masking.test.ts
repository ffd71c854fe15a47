import { describe, expect, it } from 'vitest';
import { candidateIdentifiers, maskCandidate } from './candidate-masking.ts';
import { quoteFromAnswer } from './suggest-answer.ts';

describe('maskCandidate', () => {
  const ids = (name: string, studentId: string) => candidateIdentifiers({ name, studentId });

  it('masks the name, its parts, the candidate ID and its digits, and every e-mail address', () => {
    expect(ids('José  Álvarez Núñez', 'S-0012345')).toEqual([
      'José Álvarez Núñez',
      'José',
      'Álvarez',
      'Núñez',
      'S-0012345',
      '0012345',
    ]);
    expect(
      maskCandidate(
        'José\nÁlvarez Núñez, s-0012345 (0012345), jose.alvarez@uni.example.es: ÁLVAREZ wrote this.',
        ids('José Álvarez Núñez', 'S-0012345'),
      ),
    ).toBe('[candidate], [candidate] ([candidate]), [candidate]: [candidate] wrote this.');
  });

  it('never masks inside a longer word, in any script', () => {
    const masked = maskCandidate('Anna read Annamaria and Ñandú; Anna.', ids('Anna Ñan', 'X1'));
    expect(masked).toBe('[candidate] read Annamaria and Ñandú; [candidate].');
  });

  it('masks a short name part only as written, so the word inside a sentence stays', () => {
    const masked = maskCandidate('Li said the lid is li-ion. LI', ids('Li Wei', 'S-9'));
    expect(masked).toBe('[candidate] said the lid is li-ion. LI');
  });

  it('leaves an answer that names nobody as it is', () => {
    const answer = 'Rayleigh scattering makes short wavelengths dominate.';
    expect(maskCandidate(answer, ids('Grace Hopper', 'S-77'))).toBe(answer);
  });
});

describe('quoteFromAnswer', () => {
  it('keeps a quote the answer contains, whatever its whitespace, and drops anything else', () => {
    const answer = 'The sky is blue\nbecause of   Rayleigh scattering.';
    expect(quoteFromAnswer('  because of Rayleigh\tscattering ', answer)).toBe('because of Rayleigh\tscattering');
    expect(quoteFromAnswer('because of Mie scattering', answer)).toBe('');
    expect(quoteFromAnswer('   ', answer)).toBe('');
    expect(quoteFromAnswer('', answer)).toBe('');
  });
});
