/**
 * One operation at a time per schedule in this process: a firing and a pause, update or
 * delete of the same schedule never interleave, so once a pause or delete is answered no
 * firing that began before it can still create a run.
 */
export class ScheduleLocks {
  private readonly tails = new Map<string, Promise<unknown>>();

  async with<T>(scheduleId: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(scheduleId) ?? Promise.resolve();
    const mine = before.then(work, work);
    const tail = mine.catch(() => undefined);
    this.tails.set(scheduleId, tail);
    try {
      return await mine;
    } finally {
      // The last in line clears the entry, so the map holds only schedules being worked on.
      if (this.tails.get(scheduleId) === tail) this.tails.delete(scheduleId);
    }
  }
}
