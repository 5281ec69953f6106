/**
 * `@agent-runs/core/cron`: the 5-field cron expressions of schedules, checked the way the
 * server reads them, so that a client can refuse a bad `--cron` before anything is sent.
 * An entry of its own: only schedule commands load the parser.
 */
export { parseCron, isTimeZone, CRON_HINT, type CronCheck, type CronSchedule } from './parse-cron.js';
