import { describe, expect, it } from 'vitest';
import { examMaxPoints, isAllowedLtiUrl, isInstructorLaunch, launchDisplayName, LtiRole } from './lti.ts';

describe('LTI rules', () => {
  it.each([
    ['https://canvas.example.edu/api/lti/authorize_redirect', true],
    ['http://localhost:8080/auth', true],
    ['http://127.0.0.1/jwks', true],
    ['http://[::1]:9000/token', true],
    ['http://canvas.example.edu/auth', false],
    ['http://localhost.evil.example/auth', false],
    ['ftp://localhost/jwks', false],
    ['not a url', false],
  ])('takes %s as a platform URL: %s', (url, allowed) => {
    expect(isAllowedLtiUrl(url)).toBe(allowed);
  });

  it('opens the creator side for instructors and administrators of the context, in full or short form', () => {
    expect(isInstructorLaunch([LtiRole.learner, LtiRole.instructor])).toBe(true);
    expect(isInstructorLaunch([LtiRole.administrator])).toBe(true);
    expect(isInstructorLaunch(['Instructor'])).toBe(true);
    expect(isInstructorLaunch([LtiRole.learner])).toBe(false);
    expect(isInstructorLaunch(['http://purl.imsglobal.org/vocab/lis/v2/institution/person#Instructor'])).toBe(false);
    expect(isInstructorLaunch([])).toBe(false);
  });

  it('names the learner by name, else given and family name, else nothing', () => {
    expect(launchDisplayName({ name: ' Ada Lovelace ', given_name: 'A' })).toBe('Ada Lovelace');
    expect(launchDisplayName({ given_name: 'Ada', family_name: 'Lovelace' })).toBe('Ada Lovelace');
    expect(launchDisplayName({ family_name: 'Lovelace' })).toBe('Lovelace');
    expect(launchDisplayName({ name: 42 })).toBe('');
  });

  it("counts the exam's points as one candidate sits it, at least 1", () => {
    const questions = [
      { points: 2, poolId: null },
      { points: 1.5, poolId: 'p' },
      { points: 1.5, poolId: 'p' },
      { points: 0.1, poolId: 'gone' },
    ];
    expect(examMaxPoints(questions, [{ id: 'p', draw: 1, points: 3 }])).toBe(5.1);
    expect(examMaxPoints([], [])).toBe(1);
  });
});
