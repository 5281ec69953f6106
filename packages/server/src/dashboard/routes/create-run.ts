import { DomainError } from '../../domain/domain-errors.js';
import { domainProblem } from '../../http/domain-problem.js';
import { attachmentsOf } from '../form-attachments.js';
import { pickedModel } from '../model-choices.js';
import { newRunChoices } from '../new-run-choices.js';
import { newRunPage, runRequestOf } from '../new-run-page.js';
import { page, seeOther } from '../page-reply.js';
import type { SignedInRoute } from '../signed-in-route.js';

/** `POST /runs`: the start form, with its files; on to the new run's page. */
export const createRunRoute: SignedInRoute = {
  method: 'POST',
  path: '/runs',
  withFiles: true,
  async handle({ app, session, caller, form, files }) {
    const choices = await newRunChoices(app, caller);
    try {
      const body = { ...runRequestOf(form, pickedModel(choices, form)) };
      const attachments = attachmentsOf(files);
      if (attachments.length) body.attachments = attachments;
      const created = await app.runs.create({ body, creator: caller, source: 'WEB_APP', idempotencyKey: form.get('idempotency_key') || undefined });
      return seeOther(`/runs/${encodeURIComponent(created.run_id)}`);
    } catch (error) {
      // A request the service refuses is shown on the form, filled in as it was sent.
      const problem = error instanceof DomainError ? domainProblem(error) : undefined;
      if (!problem || problem.status >= 500) throw error;
      return page(newRunPage(session, choices, form, problem.detail), problem.status);
    }
  },
  // A form too large to read is shown again, empty, with what was too large.
  formProblem: async ({ app, session, caller }, problem) => page(newRunPage(session, await newRunChoices(app, caller), undefined, problem.detail), problem.status),
};
