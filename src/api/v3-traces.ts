/** The v3 seam, part 2: traces, actions, pending work and /decode (v3.md §2.1 pendingTransactions, §2.6, §2.7 decode, §4). Shapes and params as the reference answers them. */

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface V3TracesApi {}
