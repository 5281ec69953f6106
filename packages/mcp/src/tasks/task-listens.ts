import { CLIENT_CAPABILITIES_META_KEY, ProtocolErrorCode, SUBSCRIPTION_ID_META_KEY } from '@modelcontextprotocol/server';
import { detailedTask, TASKS_EXTENSION } from './task-extension.js';
import { MAX_TASKS, type TaskRegistry, type TaskSnapshot } from './task-registry.js';

type ListenParams = {
  notifications?: { taskIds?: unknown };
  _meta?: Record<string, { extensions?: Record<string, unknown> } | undefined>;
};

/** The task ids a 2026-07-28 `subscriptions/listen` request asks to hear about (none: undefined). */
export function listenedTaskIds(params: unknown): string[] | undefined {
  const wanted = (params as ListenParams | undefined)?.notifications?.taskIds;
  if (!Array.isArray(wanted)) return undefined;
  return [...new Set(wanted.filter((id): id is string => typeof id === 'string'))].slice(0, MAX_TASKS);
}

/** The JSON-RPC error the extension requires for a listen asking for tasks without declaring it; undefined when declared. */
export function undeclaredTasksError(params: unknown): { code: number; message: string; data: object } | undefined {
  const capabilities = (params as ListenParams | undefined)?._meta?.[CLIENT_CAPABILITIES_META_KEY];
  if (capabilities?.extensions?.[TASKS_EXTENSION] !== undefined) return undefined;
  return {
    code: ProtocolErrorCode.MissingRequiredClientCapability,
    message: `Declare the ${TASKS_EXTENSION} extension in this request's client capabilities to hear of tasks.`,
    data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  };
}

/** A `notifications/tasks` message for one listen stream. */
export interface TaskNotification {
  method: 'notifications/tasks';
  params: Record<string, unknown>;
}

/**
 * The tasks extension's status notifications: for a listen stream that names tasks, each
 * change of a task this server holds (its status message, its end) is pushed at once as
 * `notifications/tasks` with the task as `tasks/get` would show it, so a host need not
 * poll. Returns the ids agreed (for the stream's acknowledgement), `current`, which sends
 * each task as it is now (to follow the acknowledgement: a task may have changed, or
 * ended, between the host's last look and its listen), and the stop.
 */
export function followTasks(
  registry: TaskRegistry,
  taskIds: readonly string[],
  subscriptionId: string | number,
  send: (notification: TaskNotification) => void,
  /** Called once every agreed task has ended (its terminal status sent). */
  onAllEnded: () => void = () => {},
): { taskIds: string[]; current: () => void; stop: () => void } {
  const stops = new Map<string, () => void>();
  const push = (snapshot: TaskSnapshot) => {
    send({ method: 'notifications/tasks', params: { ...detailedTask(snapshot), _meta: { [SUBSCRIPTION_ID_META_KEY]: subscriptionId } } });
    // A terminal status is the task's last change.
    if (snapshot.view.status !== 'working' && snapshot.view.status !== 'input_required') {
      stops.get(snapshot.view.taskId)?.();
      if (stops.delete(snapshot.view.taskId) && stops.size === 0) onAllEnded();
    }
  };
  for (const taskId of taskIds) {
    const stop = registry.watch(taskId, push);
    if (stop) stops.set(taskId, stop);
  }
  const agreed = [...stops.keys()];
  return {
    taskIds: agreed,
    current: () => {
      for (const taskId of agreed) {
        const snapshot = stops.has(taskId) ? registry.snapshot(taskId) : undefined;
        if (snapshot) push(snapshot);
      }
    },
    stop: () => {
      for (const stop of stops.values()) stop();
      stops.clear();
    },
  };
}
