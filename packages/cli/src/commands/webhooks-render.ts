import { visibleText, type WebhookDelivery, type WebhookSubscription } from '@agent-runs/core';

const clean = (value: unknown) => visibleText(String(value ?? ''));

/** One subscription, as `webhooks get` and `create` print it. */
export function renderWebhookDetails(hook: WebhookSubscription): string {
  const filter = hook.filter && Object.keys(hook.filter).length ? JSON.stringify(hook.filter) : 'none';
  const rows: [string, string][] = [
    ['id', hook.id],
    ['url', hook.url],
    ['events', hook.event_types.join(', ')],
    ['filter', filter],
    ['payload', hook.thin ? 'thin (ids only)' : 'full run'],
    ['enabled', hook.enabled ? 'yes' : `no${hook.disabled_reason ? ` (${hook.disabled_reason})` : ''}`],
    ...(hook.description ? ([['description', hook.description]] as [string, string][]) : []),
    ...(hook.operator_managed ? ([['managed by', "the server's configuration file (change it there)"]] as [string, string][]) : []),
    ...(hook.previous_secret_expires_at ? ([['old secret signs until', hook.previous_secret_expires_at]] as [string, string][]) : []),
    ...(hook.secret ? ([['secret', `${hook.secret}   (shown once: keep it now)`]] as [string, string][]) : []),
  ];
  return rows.map(([name, value]) => `${`${name}:`.padEnd(24)}${clean(value)}\n`).join('');
}

export function renderWebhookTable(hooks: readonly WebhookSubscription[]): string {
  if (hooks.length === 0) return 'No webhooks. Create one with: agent-runs webhooks create --url https://…\n';
  return hooks
    .map((h) => `${clean(h.id)}  ${h.enabled ? 'enabled ' : 'disabled'}  ${clean(h.url)}  ${clean(h.event_types.join(','))}${h.operator_managed ? '  (configuration file)' : ''}\n`)
    .join('');
}

export function renderDeliveryTable(deliveries: readonly WebhookDelivery[]): string {
  if (deliveries.length === 0) return 'No deliveries yet.\n';
  return deliveries
    .map((d) => {
      const answer = d.last_response_status ?? (d.last_error ? 'error' : '-');
      const next = d.next_attempt_at ? `  next ${d.next_attempt_at}` : '';
      const error = d.last_error ? `  ${d.last_error}` : '';
      return `${clean(d.id)}  ${clean(d.event_type).padEnd(22)}  ${clean(d.status).padEnd(9)}  attempts ${d.attempts}  last ${clean(answer)}${clean(next)}${clean(error)}\n`;
    })
    .join('');
}
