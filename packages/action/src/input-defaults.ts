/**
 * Defaults of the inputs that have one. `action.yml` repeats them (the runner passes
 * them as INPUT_* variables); a test keeps the two in step.
 */
export const INPUT_DEFAULTS = {
  wait: 'true',
  timeout: '30m',
  'fail-on': 'FAILED, ERROR, CANCELLED, BLOCKED',
  'cancel-on-timeout': 'true',
  'cancel-on-job-cancel': 'true',
  'job-summary': 'true',
  comment: 'false',
  'allow-forks': 'false',
} as const;
