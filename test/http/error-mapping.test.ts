import { describe, expect, it } from 'vitest';
import { problemFromError } from '../../src/cli.js';
import { AppError, ERROR_CODES } from '../../src/domain/errors.js';
import { HTTP_ERRORS, httpHeadersOf, httpStatusOf } from '../../src/http/error-statuses.js';
import { buildProblem } from '../../src/http/problem.js';
import { errorPage } from '../../src/web/admin/error-page.js';

/**
 * Every error code through every surface that says it: the API's problem+json (status, title, type), an admin
 * page (a heading, the status's own wording), and the CLI (the code and its detail, no HTTP status). A new code
 * without an HTTP row does not compile; one that a surface cannot say fails here.
 */
describe('one way to say no: every code mapped once', () => {
  it('the HTTP table has exactly the domain codes, each with a status and a title', () => {
    expect(Object.keys(HTTP_ERRORS).sort()).toEqual([...ERROR_CODES].sort());
    for (const code of ERROR_CODES) {
      expect(HTTP_ERRORS[code].status).toBeGreaterThanOrEqual(400);
      expect(HTTP_ERRORS[code].status).toBeLessThan(600);
      expect(HTTP_ERRORS[code].title.length).toBeGreaterThan(3);
    }
  });

  it.each([...ERROR_CODES])('%s: API, page and CLI', (code) => {
    const error = new AppError(code, `Detail of ${code}`);
    const problem = buildProblem('https://leads.example.com', 'req-1', error);
    expect(problem).toMatchObject({
      ok: false,
      code,
      status: httpStatusOf(error),
      title: HTTP_ERRORS[code].title,
      type: `https://leads.example.com/problems/${code}`,
      detail: `Detail of ${code}`,
      requestId: 'req-1',
    });

    const page = errorPage(error, { requestId: 'req-1', method: 'POST' });
    expect(page).toMatch(/<h1>[^<]+<\/h1>/);
    if (httpStatusOf(error) >= 500) {
      expect(page).toContain('req-1');
      expect(page).not.toContain(`Detail of ${code}`);
    }

    const cli = problemFromError(error);
    expect(cli).toEqual({ code, detail: `Detail of ${code}` });
    expect(JSON.stringify(cli)).not.toMatch(/status/);
  });

  it('a quote whose total is below zero: 422, its words on the page and the CLI', () => {
    const error = new AppError('negative_total', 'The total is -$1.05, below zero: lower the discount');
    expect(httpStatusOf(error)).toBe(422);
    expect(errorPage(error, { requestId: 'req-1', method: 'POST' })).toContain('below zero: lower the discount');
    expect(problemFromError(error)).toEqual({ code: 'negative_total', detail: error.detail });
  });

  it('what a refusal carries becomes headers on the HTTP side only', () => {
    const limited = new AppError('rate_limited', 'Wait', [], { retryAfterSeconds: 900 });
    expect(httpHeadersOf(limited)).toEqual({ 'retry-after': '900' });
    expect(httpHeadersOf(new AppError('unsupported_encoding', 'x', [], { accepted: ['gzip', 'br'] }))).toEqual({
      'accept-encoding': 'gzip, br',
    });
    expect(httpHeadersOf(new AppError('method_not_allowed', 'x', [], { accepted: ['POST', 'OPTIONS'] }))).toEqual({
      allow: 'POST, OPTIONS',
    });
    expect(httpHeadersOf(new AppError('invalid_fields', 'x'))).toEqual({});
    expect(problemFromError(limited)).toEqual({ code: 'rate_limited', detail: 'Wait' });
  });
});
