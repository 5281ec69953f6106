import { html, type SafeHtml } from './html.js';
import { errorNote, layout } from './layout.js';

/** The sign-in form: the key goes in a POST body, never in a URL. */
export function signInPage(next: string, error?: string): SafeHtml {
  const body = html`<h1>Sign in</h1>
<form method="post" action="/sign-in" class="stack">
${errorNote(error)}
<input type="hidden" name="next" value="${next}">
<label for="api-key">API key</label>
<input id="api-key" name="api_key" type="password" autocomplete="current-password" required autofocus>
<p class="muted">One of this server's API keys (<code>--api-key</code>, <code>AGENT_RUNS_API_KEY</code> or the configuration's keys). You see what that key sees through the API.</p>
<button type="submit" class="primary">Sign in</button>
</form>`;
  return layout({ title: 'Sign in', body });
}
