import { HttpError } from '@assay/client';
import { describe, expect, it } from 'vitest';
import { describeFailure } from '../src/errors.js';

const forbidden = (message: string) =>
  new HttpError(403, { error: 'forbidden', message }, { method: 'POST', path: '/reports' });

describe('what a refused tool call tells the model', () => {
  it('says read-only credentials only read, without blaming a scope they have', () => {
    const text = describeFailure(
      forbidden('These credentials are read-only: every write needs an OAuth 2.0 access token'),
      'http://assay.test',
    );
    expect(text).toMatch(/only read/);
    expect(text).toMatch(/ASSAY_CLIENT_ID/);
    expect(text).not.toMatch(/scope/);
  });

  it('names the missing scope when the scope is what is missing', () => {
    const text = describeFailure(
      forbidden('The scope "reports" is not granted to these credentials'),
      'http://assay.test',
    );
    expect(text).toMatch(/needs the "reports" scope/);
  });
});
