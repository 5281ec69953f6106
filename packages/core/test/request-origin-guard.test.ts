import { describe, expect, it } from 'vitest';
import { checkRequestOrigin, hostsForName, loopbackHosts } from '../src/contract/request-origin-guard.js';

describe('hostsForName', () => {
  it('keeps a name that says its port as given', () => {
    expect(hostsForName('Runs.Example.com:8443', 4280)).toEqual(['runs.example.com:8443']);
    expect(hostsForName('127.0.0.1:4280', 9999)).toEqual(['127.0.0.1:4280']);
    expect(hostsForName('[::1]:4280', 9999)).toEqual(['[::1]:4280']);
  });

  it('gives a bare name the server port, and no port for a proxy on the default one', () => {
    expect(hostsForName('runs.internal', 4280)).toEqual(['runs.internal:4280', 'runs.internal']);
    expect(hostsForName('::1', 4280)).toEqual(['[::1]:4280', '[::1]']);
  });
});

describe('checkRequestOrigin', () => {
  const options = { allowedHosts: [...loopbackHosts('127.0.0.1', 4280), ...hostsForName('runs.example.com:8443', 4280)], allowedOrigins: [] };

  it('lets the server own names and origins through', () => {
    expect(checkRequestOrigin({ host: 'runs.example.com:8443', origin: 'https://runs.example.com:8443' }, options)).toBeUndefined();
    expect(checkRequestOrigin({ host: 'localhost:4280' }, options)).toBeUndefined();
  });

  it('refuses a rebound name and a foreign origin with 403', () => {
    expect(checkRequestOrigin({ host: 'evil.example:4280' }, options)?.status).toBe(403);
    expect(checkRequestOrigin({ host: '127.0.0.1:4280', origin: 'http://evil.example' }, options)?.status).toBe(403);
  });
});
