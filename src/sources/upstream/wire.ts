/** What the upstream clients write alike. */
export const b64 = (b: Buffer): string => b.toString('base64');
