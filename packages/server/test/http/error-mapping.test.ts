import { describe, expect, it } from 'vitest';
import { cliFailure } from '../../src/cli/errors.js';
import {
  accessDenied,
  BusinessError,
  DomainError,
  Forbidden,
  NotFound,
  TooManyAttempts,
  Unauthenticated,
} from '../../src/domain/errors.js';
import { pageStatusOf, wireAnswer } from '../../src/http/error-handler.js';
import { HttpError } from '../../src/http/errors.js';

describe('domain errors on the wire', () => {
  it('a business failure is HTTP 200 with the ERROR envelope', () => {
    expect(wireAnswer(new BusinessError('email: is required'))).toEqual({
      statusCode: 200,
      headers: {},
      body: { status: 'ERROR', data: 'email: is required' },
    });
    expect(wireAnswer(accessDenied()).body).toEqual({ status: 'ERROR', data: 'Access denied' });
  });

  it('not found is 404 naming the thing', () => {
    expect(wireAnswer(new NotFound('campaign'))).toEqual({
      statusCode: 404,
      headers: {},
      body: { error: 'not_found', message: 'campaign not found' },
    });
  });

  it('forbidden is 403, unauthenticated 401 with its challenge, too many attempts 429 with Retry-After', () => {
    expect(wireAnswer(new Forbidden('no'))).toEqual({
      statusCode: 403,
      headers: {},
      body: { error: 'forbidden', message: 'no' },
    });
    expect(wireAnswer(new Unauthenticated('who?'))).toEqual({
      statusCode: 401,
      headers: { 'www-authenticate': 'Bearer realm="assay"' },
      body: { error: 'unauthorized', message: 'who?' },
    });
    expect(wireAnswer(new TooManyAttempts('wait', 7))).toEqual({
      statusCode: 429,
      headers: { 'retry-after': '7' },
      body: { error: 'too_many_requests', message: 'wait' },
    });
  });

  it('an HTTP error keeps its own status, code and headers', () => {
    expect(wireAnswer(new HttpError(405, 'method_not_allowed', 'm', { allow: 'GET' }))).toEqual({
      statusCode: 405,
      headers: { allow: 'GET' },
      body: { error: 'method_not_allowed', message: 'm' },
    });
  });

  it('a domain error the mapping does not know shows nothing of itself', () => {
    class Unmapped extends DomainError {}
    expect(wireAnswer(new Unmapped('secret detail'))).toEqual({
      statusCode: 500,
      headers: {},
      body: { error: 'internal_error', message: 'Internal server error' },
    });
  });

  it('a page without an envelope answers the real status, or the framework one', () => {
    expect(pageStatusOf(new NotFound('report'))).toBe(404);
    expect(pageStatusOf(Object.assign(new BusinessError('body: x'), { statusCode: 400 }))).toBe(400);
    expect(pageStatusOf(new BusinessError('x'))).toBeUndefined();
    expect(pageStatusOf(new Error('boom'))).toBeUndefined();
  });
});

describe('domain errors on the command line', () => {
  it('prints the message and exits 1', () => {
    expect(cliFailure(new BusinessError('user: no user a@b.c'))).toEqual({
      message: 'user: no user a@b.c',
      exitCode: 1,
    });
    expect(cliFailure(new NotFound('campaign'))).toEqual({ message: 'campaign not found', exitCode: 1 });
    expect(cliFailure(new Error('connect ECONNREFUSED'))).toEqual({
      message: 'connect ECONNREFUSED',
      exitCode: 1,
    });
  });
});
