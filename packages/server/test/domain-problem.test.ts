import { describe, expect, it } from 'vitest';
import { ConflictError, InvalidInputError, NotFoundError, UnavailableError } from '../src/domain/domain-errors.js';
import { domainProblem } from '../src/http/domain-problem.js';

describe('domain errors as problems', () => {
  it('answers a missing thing with a 404 resource_not_found', () => {
    const problem = domainProblem(new NotFoundError('No run with id "x".'))!;
    expect([problem.status, problem.code, problem.detail, problem.retryable]).toEqual([404, 'resource_not_found', 'No run with id "x".', false]);
  });

  it('answers invalid input with a 400 invalid_request that carries its issues', () => {
    const problem = domainProblem(new InvalidInputError([{ path: 'prompt', message: 'is required' }]))!;
    expect([problem.status, problem.code, problem.detail]).toEqual([400, 'invalid_request', 'prompt: is required']);
    expect(problem.body('/x').issues).toEqual([{ path: 'prompt', message: 'is required' }]);
  });

  it('answers a conflict with a 409, retryable only when the service says so', () => {
    expect(domainProblem(new ConflictError('used', false))).toMatchObject({ status: 409, code: 'conflict', retryable: false });
    expect(domainProblem(new ConflictError('handing over', true))).toMatchObject({ status: 409, retryable: true });
  });

  it('answers an unavailable dependency with a 503 and its Retry-After', () => {
    const problem = domainProblem(new UnavailableError('The database is not reachable.', 5))!;
    expect([problem.status, problem.code, problem.retryable]).toEqual([503, 'resource_unavailable', true]);
    expect(problem.headers).toEqual({ 'retry-after': '5' });
    expect(domainProblem(new UnavailableError('later'))!.headers).toEqual({});
  });
});
