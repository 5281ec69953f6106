/** Refuses a database whose schema a newer server wrote: this one would misread it. */
export function refuseNewerSchema(current: number, newest: number): void {
  if (current > newest) {
    throw new Error(`The database was written by a newer server (schema version ${current}; this server knows up to ${newest}). Upgrade the server.`);
  }
}
