/**
 * The dashboard's one script, served from this origin (the CSP allows no inline script).
 * Pages work without it; with it, times show in the viewer's zone, the runs table follows
 * one stream for the page, and a run's output follows the run's stream. Run text is only
 * ever set as text; table rows come as markup the server escaped.
 */
import { TERMINAL_RUN_STATES } from '@agent-runs/core/contract';

export const DASHBOARD_SCRIPT = `'use strict';
(function () {
  var TERMINAL = ${JSON.stringify(TERMINAL_RUN_STATES)};
  var MAX_OUTPUT_CHARS = 400000;
  // How long ago, for the runs table's ages.
  function ago(ms) {
    var s = Math.max(0, Math.round(ms / 1000));
    if (s < 10) return 'just now';
    if (s < 60) return s + 's ago';
    if (s < 3600) return Math.floor(s / 60) + 'm ago';
    if (s < 172800) return Math.floor(s / 3600) + 'h ago';
    return Math.floor(s / 86400) + 'd ago';
  }
  // Times in the viewer's zone; an age says how long ago, with the exact local time on hover.
  function localTimes(root) {
    var list = root.querySelectorAll('time[datetime]');
    for (var i = 0; i < list.length; i++) {
      var d = new Date(list[i].getAttribute('datetime'));
      if (isNaN(d.getTime())) continue;
      if (list[i].hasAttribute('data-age')) {
        list[i].textContent = ago(Date.now() - d.getTime());
        list[i].title = d.toLocaleString();
      } else list[i].textContent = d.toLocaleString();
    }
  }
  localTimes(document);
  if (document.querySelector('time[data-age]')) setInterval(function () { localTimes(document); }, 30000);

  // Copy buttons: the text of the element they name.
  document.addEventListener('click', function (e) {
    var button = e.target.closest && e.target.closest('button[data-copy]');
    if (!button) return;
    var source = document.getElementById(button.getAttribute('data-copy'));
    if (!source || !navigator.clipboard) return;
    navigator.clipboard.writeText(source.textContent).then(function () { button.textContent = 'Copied'; }, function () {});
  });

  // A file input with limits says what is too much before the files are sent (the server checks again).
  var files = document.querySelector('input[type=file][data-max-files]');
  if (files) {
    files.addEventListener('change', function () {
      var max = Number(files.getAttribute('data-max-files'));
      var each = Number(files.getAttribute('data-max-bytes'));
      var all = Number(files.getAttribute('data-max-total'));
      var total = 0;
      var problem = files.files.length > max ? files.files.length + ' files chosen' : '';
      for (var i = 0; i < files.files.length && !problem; i++) {
        total += files.files[i].size;
        if (files.files[i].size > each) problem = '"' + files.files[i].name + '" is too big';
      }
      if (!problem && total > all) problem = 'the files are too large together';
      files.setCustomValidity(problem ? files.name + ': ' + problem + '; ' + files.getAttribute('data-limits') + '.' : '');
      if (problem) files.reportValidity();
    });
  }

  // The runs table: one stream for the page; changed rows are replaced, new ones go on top.
  var table = document.querySelector('[data-live-runs]');
  if (table && typeof EventSource === 'function') {
    var body = table.querySelector('tbody');
    var firstPage = table.getAttribute('data-first-page') === 'true';
    var rows = new EventSource(table.getAttribute('data-live-runs'));
    rows.addEventListener('row', function (e) {
      var data = JSON.parse(e.data);
      var holder = document.createElement('tbody');
      holder.innerHTML = data.html;
      var row = holder.firstElementChild;
      if (!row) return;
      localTimes(row);
      var old = body.querySelector('tr[data-run-id="' + CSS.escape(data.id) + '"]');
      if (old) old.replaceWith(row);
      else if (firstPage) {
        var empty = document.getElementById('runs-empty');
        if (empty) empty.remove();
        table.hidden = false;
        body.insertBefore(row, body.firstChild);
      }
    });
  }

  // A run's page: state and output follow the run's stream; output can be paused and searched.
  var run = document.querySelector('[data-run-events]');
  if (run && typeof EventSource === 'function') {
    var output = document.getElementById('output');
    var pause = document.getElementById('output-pause');
    var search = document.getElementById('output-search');
    var count = document.getElementById('output-count');
    var full = output.getAttribute('data-empty') === 'true' ? '' : output.textContent;
    var paused = false;
    function show() {
      var term = search ? search.value : '';
      if (!term) {
        output.textContent = full || '(nothing yet)';
        if (count) count.textContent = '';
      } else {
        var lines = full.split('\\n').filter(function (line) { return line.toLowerCase().indexOf(term.toLowerCase()) >= 0; });
        output.textContent = lines.join('\\n');
        if (count) count.textContent = lines.length + (lines.length === 1 ? ' line matches' : ' lines match');
      }
      if (!paused && !term) output.scrollTop = output.scrollHeight;
    }
    if (pause) {
      pause.hidden = false;
      pause.addEventListener('click', function () {
        paused = !paused;
        pause.textContent = paused ? 'Resume output' : 'Pause output';
        pause.setAttribute('aria-pressed', paused ? 'true' : 'false');
        if (!paused) show();
      });
    }
    if (search) {
      search.form.addEventListener('submit', function (e) { e.preventDefault(); show(); });
      search.addEventListener('input', show);
    }
    // What the server renders of the run (timeline, usage, artifacts, conversation, actions), read again when the run changes.
    var seen = run.getAttribute('data-run-version');
    var reading = false;
    var again = false;
    function refresh() {
      if (reading) { again = true; return; }
      reading = true;
      again = false;
      fetch(location.pathname, { credentials: 'same-origin' }).then(function (r) { return r.ok ? r.text() : ''; }).then(function (text) {
        var fresh = new DOMParser().parseFromString(text, 'text/html');
        ['timeline', 'usage', 'run-actions', 'artifacts-section', 'conversation-section'].forEach(function (id) {
          var now = document.getElementById(id);
          var next = fresh.getElementById(id);
          if (now && next) {
            localTimes(next);
            now.replaceWith(document.adoptNode(next));
          }
        });
      }).catch(function () {}).then(function () {
        reading = false;
        if (again) refresh();
      });
    }
    var events = new EventSource(run.getAttribute('data-run-events'));
    events.addEventListener('run', function (e) {
      var item = JSON.parse(e.data);
      var version = item.state + ' ' + (item.artifacts ? item.artifacts.length : 0);
      if (version !== seen) refresh();
      seen = version;
      var state = document.getElementById('run-state');
      if (state) {
        state.textContent = item.state;
        state.className = 'state state-' + String(item.state).replace(/[^A-Z]/g, '');
      }
      var status = document.getElementById('run-status');
      if (status) status.textContent = (item.status_message && item.status_message.message) || '';
      var note = document.getElementById('live-note');
      if (TERMINAL.indexOf(item.state) >= 0) {
        events.close();
        if (note) note.textContent = 'The run is over.';
      } else if (note) note.textContent = 'Live: output follows the run.';
      document.title = (item.title || '') + ' \\u00b7 ' + item.state + ' \\u00b7 agent-runs';
    });
    events.addEventListener('output', function (e) {
      full += JSON.parse(e.data).text;
      if (full.length > MAX_OUTPUT_CHARS) full = full.slice(full.length - MAX_OUTPUT_CHARS);
      if (!paused) show();
    });
    events.addEventListener('skipped', function (e) {
      full += '\\n[' + JSON.parse(e.data).message + ']\\n';
    });
  }
})();
`;
