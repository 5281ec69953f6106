import type { V1Job, V1Pod } from '@kubernetes/client-node';

/** Why a Job's pod will not run the agent to its end, worded for the run's status message. */
export interface PodTrouble {
  kind: 'image' | 'config' | 'unschedulable' | 'oom' | 'pod-ended';
  message: string;
}

const IMAGE_REASONS = new Set(['ImagePullBackOff', 'ErrImagePull', 'InvalidImageName', 'ErrImageNeverPull']);

/** Cluster text in a status message: one line, bounded. */
const said = (text: string | undefined) => (text ? `: ${text.replace(/\s+/g, ' ').trim().slice(0, 300)}` : '');

/** The pod's containers' statuses, init containers included. */
function statuses(pod: V1Pod) {
  return [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
}

/** An image that cannot be pulled: never fixes itself soon enough to wait for. */
export function imageTrouble(pod: V1Pod): PodTrouble | undefined {
  for (const status of statuses(pod)) {
    const waiting = status.state?.waiting;
    if (waiting?.reason && IMAGE_REASONS.has(waiting.reason)) {
      return { kind: 'image', message: `The Job's pod could not pull its image ${status.image ?? ''} (${waiting.reason})${said(waiting.message)}.` };
    }
  }
  return undefined;
}

/** A container the kubelet cannot make: a Secret (or key of one) the spec names is not there. Waits for the operator, not for time. */
export function configTrouble(pod: V1Pod): PodTrouble | undefined {
  for (const status of statuses(pod)) {
    const waiting = status.state?.waiting;
    if (waiting?.reason === 'CreateContainerConfigError') {
      return { kind: 'config', message: `The Job's pod could not start its container (${waiting.reason})${said(waiting.message)}; check the Secrets named in kubernetes.env_from_secrets and kubernetes.secret_env.` };
    }
  }
  return undefined;
}

/** A container the kernel killed for memory. */
export function oomTrouble(pod: V1Pod): PodTrouble | undefined {
  for (const status of statuses(pod)) {
    const ended = status.state?.terminated ?? status.lastState?.terminated;
    if (ended?.reason === 'OOMKilled') {
      const limit = pod.spec?.containers.find((c) => c.name === status.name)?.resources?.limits?.['memory'];
      return { kind: 'oom', message: `The agent ran out of memory: its pod's container was OOMKilled${limit ? ` (memory limit ${String(limit)})` : ''}.` };
    }
  }
  return undefined;
}

/** The scheduler's reason, while the pod waits for a node. */
export function unschedulableReason(pod: V1Pod): string | undefined {
  if (pod.status?.phase !== 'Pending') return undefined;
  const scheduled = pod.status.conditions?.find((c) => c.type === 'PodScheduled');
  if (scheduled?.status !== 'False' || scheduled.reason !== 'Unschedulable') return undefined;
  return scheduled.message ?? 'no node fits it';
}

/** Kubernetes gave the Job up for a reason other than its deadline (that one is `deadlineEnd`'s). */
export function jobTrouble(job: V1Job): PodTrouble | undefined {
  const failed = job.status?.conditions?.find((c) => c.type === 'Failed' && c.status === 'True');
  if (!failed || failed.reason === 'DeadlineExceeded') return undefined;
  return { kind: 'pod-ended', message: `Kubernetes failed the run's Job (${failed.reason ?? 'no reason given'})${said(failed.message)}.` };
}

/** A pod over without the entrypoint having said how the agent ended (killed, evicted, the entrypoint missing). */
export function endedPodTrouble(pod: V1Pod): PodTrouble | undefined {
  const phase = pod.status?.phase;
  if (phase !== 'Failed' && phase !== 'Succeeded') return undefined;
  const ended = statuses(pod).find((s) => s.state?.terminated)?.state?.terminated;
  const how = ended ? `exit code ${ended.exitCode}${ended.reason ? `, ${ended.reason}` : ''}` : (pod.status?.reason ?? phase);
  return { kind: 'pod-ended', message: `The Job's pod ended (${how}) without reporting how the agent ended${said(pod.status?.message ?? ended?.message)}.` };
}
