import { getOctokit } from '@actions/github';

/**
 * Who may start an agent from a workflow. An agent holds the run's secrets and writes code:
 * a workflow that runs on pull requests or comments would otherwise let anyone who can open
 * one (from a fork, or a first-time contributor's comment) spend the API key and steer the
 * agent. The event says how its author is associated with the repository; with a token,
 * the collaborator permission says whether the actor may write.
 */
export interface TriggerPolicy {
  /** `allow-forks`: pull requests from forks may start runs. */
  allowForks: boolean;
  /** `allowed-actors`: logins trusted whatever their association. */
  allowedActors: readonly string[];
  /** `github-token`: to ask GitHub whether the actor may write the repository. */
  githubToken: string | undefined;
}

export interface TriggerEvent {
  eventName: string;
  actor: string;
  payload: Record<string, any>;
  owner: string | undefined;
  repo: string | undefined;
}

export type TriggerVerdict = { allowed: true; notes: string[] } | { allowed: false; reason: string };

/** The associations of people who may push to the repository (GitHub's `author_association`). */
const TRUSTED_ASSOCIATIONS = new Set(['OWNER', 'MEMBER', 'COLLABORATOR']);
/** Collaborator permissions that include writing. */
const WRITE_PERMISSIONS = new Set(['admin', 'maintain', 'write']);

/** What the event's author wrote (a comment, a review, a pull request, an issue), if the event carries one. */
function subjectOf(event: TriggerEvent): { author_association?: unknown } | undefined {
  const p = event.payload;
  return p['comment'] ?? p['review'] ?? p['pull_request'] ?? p['issue'] ?? p['discussion'];
}

/** Events that carry another person's words or code: their author must be trusted. */
const AUTHORED_EVENTS = new Set([
  'pull_request',
  'pull_request_target',
  'pull_request_review',
  'pull_request_review_comment',
  'issue_comment',
  'issues',
  'discussion',
  'discussion_comment',
]);

/** The fork a pull request event comes from, if it does. */
function forkOf(payload: Record<string, any>): string | undefined {
  const pr = payload['pull_request'];
  if (!pr) return undefined;
  const head = pr.head?.repo?.full_name;
  const base = pr.base?.repo?.full_name;
  // A fork deleted since has no head repository: it was not this one.
  if (pr.head && !pr.head.repo) return '(a deleted fork)';
  return typeof head === 'string' && typeof base === 'string' && head !== base ? head : undefined;
}

/** Whether GitHub says the actor may write the repository (undefined when it cannot be asked). */
async function writes(event: TriggerEvent, token: string): Promise<boolean | string> {
  if (!event.owner || !event.repo) return 'no repository in the workflow context';
  try {
    const { data } = await getOctokit(token).rest.repos.getCollaboratorPermissionLevel({ owner: event.owner, repo: event.repo, username: event.actor });
    return WRITE_PERMISSIONS.has(data.permission);
  } catch (error) {
    const status = (error as { status?: number }).status;
    return `GitHub answered ${status ?? (error as Error).message} to the collaborator permission of ${event.actor}`;
  }
}

/** Decides whether this event may start (or follow up) a run, before anything is created. */
export async function checkTrigger(event: TriggerEvent, policy: TriggerPolicy): Promise<TriggerVerdict> {
  const notes: string[] = [];
  const fork = forkOf(event.payload);
  if (fork) {
    if (!policy.allowForks) {
      return {
        allowed: false,
        reason:
          `Not starting an agent: this ${event.eventName} event comes from a pull request of the fork ${fork}, whose code and words anyone can write. ` +
          'Set allow-forks: true to allow it (see the README on pull_request_target: never check out the fork\'s head where secrets are in reach).',
      };
    }
    notes.push(`allow-forks: true: starting a run for a pull request from the fork ${fork}.`);
  }
  const subject = subjectOf(event);
  // Pushes, schedules and dispatches (started by someone who may write, or the repository itself) carry no one else's words.
  if (!AUTHORED_EVENTS.has(event.eventName) || !subject) return { allowed: true, notes };

  const association = typeof subject.author_association === 'string' ? subject.author_association : undefined;
  if (association && TRUSTED_ASSOCIATIONS.has(association)) return { allowed: true, notes };
  if (policy.allowedActors.some((login) => login.toLowerCase() === event.actor.toLowerCase())) {
    notes.push(`allowed-actors names ${event.actor}: starting a run for them (association ${association ?? 'unknown'}).`);
    return { allowed: true, notes };
  }
  let asked = '';
  if (policy.githubToken) {
    const answer = await writes(event, policy.githubToken);
    if (answer === true) return { allowed: true, notes };
    if (typeof answer === 'string') asked = ` (${answer})`;
    else asked = ' and cannot write the repository';
  }
  return {
    allowed: false,
    reason:
      `Not starting an agent: ${event.actor || 'the actor'} triggered this ${event.eventName} event as ${association ?? 'an actor of unknown association'}${asked}, ` +
      'not as an owner, member or collaborator. Add their login to allowed-actors to allow it' +
      (policy.githubToken ? '.' : ', or pass github-token so that a collaborator with write access is recognised.'),
  };
}
