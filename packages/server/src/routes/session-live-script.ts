import { TERMINAL_RUN_STATES } from '@agent-runs/core/contract';
import { bytes } from '../http/reply.js';
import type { AppRoute } from './app-context.js';

/**
 * The session page's script, served as a file of its own so that a Content-Security-Policy
 * without inline scripts allows it. It follows the page's event stream and changes only
 * text (never HTML), so nothing from a run can become markup.
 */
export const SESSION_LIVE_SCRIPT = `'use strict';
(function () {
  var root = document.querySelector('[data-events]');
  if (!root || typeof EventSource !== 'function') return;
  var TERMINAL = ${JSON.stringify(TERMINAL_RUN_STATES)};
  var MAX_OUTPUT_CHARS = 200000;
  var output = document.getElementById('output');
  var note = document.getElementById('live-note');
  var title = document.getElementById('run-title');
  var source = new EventSource(root.getAttribute('data-events'));
  function text(id, value) {
    var el = document.getElementById(id);
    if (el) el.textContent = value || '';
  }
  function append(chunk) {
    if (output.getAttribute('data-empty') === 'true') {
      output.textContent = '';
      output.removeAttribute('data-empty');
    }
    var all = output.textContent + chunk;
    output.textContent = all.length > MAX_OUTPUT_CHARS ? all.slice(all.length - MAX_OUTPUT_CHARS) : all;
  }
  source.addEventListener('run', function (e) {
    var run = JSON.parse(e.data);
    text('run-state', run.state);
    text('run-status', run.status_message && run.status_message.message);
    text('run-started', run.started_at);
    text('run-updated', run.updated_at);
    if (title && run.title) title.textContent = run.title;
    document.title = (run.title || '') + ' \\u00b7 ' + run.state;
    var list = document.getElementById('artifacts');
    if (list && Array.isArray(run.artifacts)) {
      // Labels made by the server (the same as the page shows), set as text.
      list.textContent = '';
      run.artifacts.forEach(function (label) {
        var item = document.createElement('li');
        item.textContent = String(label);
        list.appendChild(item);
      });
      text('artifacts-none', run.artifacts.length ? '' : '(none yet)');
    }
    if (TERMINAL.indexOf(run.state) >= 0) {
      source.close();
      if (note) note.textContent = 'The run is over.';
    }
  });
  source.addEventListener('output', function (e) {
    append(JSON.parse(e.data).text);
  });
  source.addEventListener('skipped', function (e) {
    append('\\n[' + JSON.parse(e.data).message + ']\\n');
  });
  if (note) note.textContent = 'This page updates as the run goes.';
})();
`;

export const SESSION_LIVE_SCRIPT_PATH = '/assets/session-live.js';

/** `GET /assets/session-live.js`. */
export const sessionLiveScriptRoute: AppRoute = {
  method: 'GET',
  path: SESSION_LIVE_SCRIPT_PATH,
  auth: false,
  handle: () =>
    bytes(SESSION_LIVE_SCRIPT, {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=300',
      'x-content-type-options': 'nosniff',
    }),
};
