/** Polls until `check` returns a value (not undefined) or the deadline passes. */
export async function waitFor<T>(check: () => Promise<T | undefined>, ms = 15_000, every = 100): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, every));
  }
}
