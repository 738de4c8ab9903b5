/** The v3 seam, part 2: DNS records, multisig wallets and orders, vesting (v3.md §2.5). Shapes and params as the reference answers them. */

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface V3OtherApi {}
