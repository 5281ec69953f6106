/** What a 404 path names, by the collection in it (the most specific first): the id to check. */
const SUBJECTS: readonly [RegExp, string][] = [
  [/\/agent\/webhooks\/[^/]+\/deliveries\//, 'the webhook id and the delivery id'],
  [/\/agent\/webhooks\//, 'the webhook id'],
  [/\/agent\/schedules\//, 'the schedule id'],
  [/\/agent\/artifacts\//, 'the artifact uid'],
  [/\/agent\/identities\//, 'the named agent uid'],
  [/\/agent\/conversations\//, 'the conversation id'],
  [/\/agent\/sessions\//, 'the session id'],
  [/\/agent\/runs\//, 'the run id'],
];

/** The id a 404 of `url` asks the caller to check, e.g. `the run id`; undefined for a path of no collection. */
export function notFoundSubject(url: string): string | undefined {
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // A relative or odd URL: matched as it is.
  }
  return SUBJECTS.find(([pattern]) => pattern.test(path))?.[1];
}
