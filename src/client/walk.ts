/** A walk's pages as one item at a time. */
export async function* flatten<T>(pages: AsyncIterable<T[]>): AsyncGenerator<T, void, undefined> {
  for await (const page of pages) yield* page;
}

/** One signal for a client's and a call's (either may be missing). */
export function joinSignals(own: AbortSignal | undefined, given: AbortSignal | undefined): AbortSignal | undefined {
  if (!own || !given || own === given) return own ?? given;
  return AbortSignal.any([own, given]);
}
