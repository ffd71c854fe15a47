import { test as base, expect } from '@playwright/test';

/**
 * The journeys' `test`: every page of the context is watched for uncaught exceptions, and a journey
 * that threw one fails even when everything it looked at came out right.
 */
export const test = base.extend<{ uncaughtErrors: string[] }>({
  uncaughtErrors: [
    async ({ context }, use) => {
      const errors: string[] = [];
      context.on('weberror', (webError) =>
        errors.push(`${webError.page()?.url() ?? 'page'}: ${webError.error().stack ?? webError.error().message}`),
      );
      await use(errors);
      expect(errors, 'uncaught exceptions in the pages').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
