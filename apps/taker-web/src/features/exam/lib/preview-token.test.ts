import { afterEach, describe, expect, it } from 'vitest';
import { forgetPreviewToken, takePreviewToken } from './preview-token.ts';

describe('takePreviewToken', () => {
  afterEach(() => {
    sessionStorage.clear();
    window.history.replaceState(null, '', '/');
  });

  it('takes the token from the fragment, removes the fragment and keeps the token for a reload', () => {
    window.history.replaceState(null, '', '/exam/e1/preview#token=abc.def.ghi');
    expect(takePreviewToken('e1')).toBe('abc.def.ghi');
    expect(window.location.hash).toBe('');
    expect(window.location.pathname).toBe('/exam/e1/preview');
    // The reload: no fragment any more, the tab still has the token.
    expect(takePreviewToken('e1')).toBe('abc.def.ghi');
  });

  it('has no token for a link without one, for another exam, or once the token is forgotten', () => {
    window.history.replaceState(null, '', '/exam/e1/preview?creator=true');
    expect(takePreviewToken('e1')).toBeNull();
    window.history.replaceState(null, '', '/exam/e1/preview#token=t1');
    expect(takePreviewToken('e1')).toBe('t1');
    expect(takePreviewToken('e2')).toBeNull();
    forgetPreviewToken('e1');
    expect(takePreviewToken('e1')).toBeNull();
  });
});
