/** Where schedules and named agents take the time from; tests pass one they can move. */
export interface ServerClock {
  now(): Date;
}
