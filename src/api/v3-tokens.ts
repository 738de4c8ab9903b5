/** The v3 seam, part 2: jettons, NFTs and /metadata (v3.md §2.2 metadata, §2.3, §2.4). Shapes and params as the reference answers them. */

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface V3TokensApi {}
