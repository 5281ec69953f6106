import { describe, expect, it } from 'vitest';
import type { ConnectedWorker } from '@agent-runs/core/contract';
import { workersPage } from '../../src/dashboard/workers-page.js';

const session = { id: 's', principal: 'alice', csrf: 'c', createdAt: 0, lastSeenAt: 0 };

const worker = (over: Partial<ConnectedWorker> = {}): ConnectedWorker => ({
  worker_host: 'gpu',
  instance_id: 'gpu-box-1',
  version: '1.2.3',
  capacity: 4,
  running_runs: 1,
  harnesses: ['claude'],
  environments: [],
  connected_at: '2026-11-28T16:00:00.000Z',
  last_heartbeat_at: '2026-11-28T16:05:00.000Z',
  draining: false,
  ...over,
});

// Every value on the page was announced by a worker process, and is escaped as a run's text is.
describe('the Workers page', () => {
  it('shows each worker, its running runs out of its capacity, heartbeat age and draining', () => {
    const text = workersPage(session, [worker(), worker({ instance_id: 'gpu-box-2', draining: true, running_runs: 0, environments: ['web'] })]).text;
    expect(text).toContain(
      '<tr><td><code>gpu</code></td><td><code>gpu-box-1</code></td><td>1/4</td><td><time datetime="2026-11-28T16:05:00.000Z" title="2026-11-28T16:05:00.000Z" data-age>2026-11-28 16:05:00 UTC</time></td><td>no</td>',
    );
    expect(text).toMatch(/<td><code>gpu-box-2<\/code><\/td><td>0\/4<\/td><td><time [^>]+>[^<]+<\/time><\/td><td><span class="state">draining<\/span><\/td>/);
    expect(text).toContain('<td class="hide-narrow"><span class="muted">any</span></td>');
    expect(text).toContain('<td class="hide-narrow">web</td>');
    expect(text).toContain('<a href="/workers" aria-current="page">Workers</a>');
  });

  it('escapes hostile text in every field', () => {
    const hostile = '"><script>alert(1)</script>';
    const text = workersPage(session, [
      worker({ worker_host: hostile, instance_id: hostile, version: hostile, harnesses: [hostile], environments: [hostile], last_heartbeat_at: hostile, connected_at: hostile }),
    ]).text;
    expect(text).not.toContain('<script>alert');
    expect(text.split('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;').length - 1).toBeGreaterThanOrEqual(7);
  });

  it('says when none is connected, and how to connect one', () => {
    const text = workersPage(session, []).text;
    expect(text).toContain('No self-hosted worker is connected.');
    expect(text).toContain('agent-runs worker --server … --worker-host …');
    expect(text).not.toContain('<table>');
  });
});
