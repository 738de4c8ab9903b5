/**
 * How a details field is declared: every one is nullable (the reference's members are pointers, and older
 * indexers omit them), says in its description which v3 key it comes from (`v3 \`key\``), and turns an
 * address into a link the graph batches: `Account`, or `JettonMaster`, `JettonWallet`, `NftItem`,
 * `NftCollection` where the reference says what the address is.
 */
import type { Shared } from '../../../../api/shared-answers.js';
import type { FieldMap, ObjectRef } from '@pothos/core';
import type { ActionType } from '../../../../api/v3/action-details.js';
import type { ActionOf } from '../../../../api/v3/actions.js';
import { builder } from '../../builder.js';
import { addressKey } from '../../loaders.js';
import { AccountRef } from '../account.js';
import { JettonMasterRef, JettonWalletRef, NftCollectionRef, NftItemRef } from '../tokens.js';

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
type FieldBuilder<P> = PothosSchemaTypes.ObjectFieldBuilder<Types, P>;
type Maybe<T> = T | null | undefined;
type TokenRef = typeof JettonMasterRef | typeof JettonWalletRef | typeof NftItemRef | typeof NftCollectionRef;

/** The description that names the v3 key (the replay test maps fields back to the recorded JSON by it). */
const fromKey = (key: string, note?: string): string => (note ? `v3 \`${key}\`: ${note}` : `v3 \`${key}\``);

const link = (raw: Maybe<string>) => (raw ? { address: addressKey(raw) } : null);
const key = (raw: Maybe<string>) => (raw ? addressKey(raw) : null);

/** Field declarations for a parent of shape P; `get` reads the member, so the compiler checks every read. */
export function kit<P>(t: FieldBuilder<P>) {
  /** A token the reference names by address: the linked object (batched by its loader) and the raw address. */
  const tokenLink = (name: string, k: string, ref: TokenRef, get: (p: P) => Maybe<string>, note?: string) => ({
    [name]: t.field({ type: ref, nullable: true, description: fromKey(k, note ? `${note} (linked)` : 'linked'), resolve: (p) => key(get(p)) }),
    [`${name}Address`]: t.field({ type: 'Address', nullable: true, description: fromKey(k, note), resolve: (p) => get(p) ?? null }),
  });
  return {
    account: (k: string, get: (p: P) => Maybe<string>, note?: string) =>
      t.field({ type: AccountRef, nullable: true, description: fromKey(k, note), resolve: (p) => link(get(p)) }),
    accounts: (k: string, get: (p: P) => Maybe<readonly string[]>, note?: string) =>
      t.field({ type: [AccountRef], nullable: true, description: fromKey(k, note), resolve: (p) => get(p)?.map((a) => ({ address: addressKey(a) })) ?? null }),
    /** `name` links the jetton master (null is TON, or a master the source has not indexed); `nameAddress` is the address. */
    jetton: (name: string, k: string, get: (p: P) => Maybe<string>, note = 'the jetton master; null is TON') => tokenLink(name, k, JettonMasterRef, get, note),
    jettonWallet: (name: string, k: string, get: (p: P) => Maybe<string>, note?: string) => tokenLink(name, k, JettonWalletRef, get, note),
    nftItem: (name: string, k: string, get: (p: P) => Maybe<string>, note?: string) => tokenLink(name, k, NftItemRef, get, note),
    nftCollection: (name: string, k: string, get: (p: P) => Maybe<string>, note?: string) => tokenLink(name, k, NftCollectionRef, get, note),
    bigint: (k: string, get: (p: P) => Maybe<string | number>, note?: string) =>
      t.field({ type: 'BigInt', nullable: true, description: fromKey(k, note), resolve: (p) => get(p) ?? null }),
    string: (k: string, get: (p: P) => Maybe<string>, note?: string) =>
      t.string({ nullable: true, description: fromKey(k, note), resolve: (p) => get(p) ?? null }),
    int: (k: string, get: (p: P) => Maybe<number>, note?: string) =>
      t.int({ nullable: true, description: fromKey(k, note), resolve: (p) => get(p) ?? null }),
    boolean: (k: string, get: (p: P) => Maybe<boolean>, note?: string) =>
      t.boolean({ nullable: true, description: fromKey(k, note), resolve: (p) => get(p) ?? null }),
    /**
     * A nested struct of the details (a swap leg, a DNS value, a LayerZero packet). Pothos cannot evaluate its
     * result type for a struct type left generic here; `ref` and `get` already tie the value to the struct.
     */
    object: <S extends object>(k: string, ref: ObjectRef<Types, S>, get: (p: P) => Maybe<S>, note?: string) =>
      t.field({ type: ref, nullable: true, description: fromKey(k, note), resolve: (p) => (get(p) ?? null) as never }),
    objects: <S extends object>(k: string, ref: ObjectRef<Types, S>, get: (p: P) => Maybe<readonly S[]>, note?: string) =>
      t.field({ type: [ref], nullable: true, description: fromKey(k, note), resolve: (p) => get(p) ?? null }),
  };
}

export type Kit<P> = ReturnType<typeof kit<P>>;

/** A details type of the union, for the action types in `types` (which share one reference struct). */
export interface DetailsType<T extends ActionType> {
  types: readonly T[];
  ref: ObjectRef<Types, Shared<ActionOf<T>>>;
}

/** Declares the GraphQL object for the details of `types`; its fields read `action.details`. */
export function detailsType<T extends ActionType>(
  name: string,
  types: readonly T[],
  description: string,
  fields: (f: Kit<Shared<ActionOf<T>>>) => FieldMap,
): DetailsType<T> {
  const ref = builder.objectRef<Shared<ActionOf<T>>>(name).implement({
    description: `${description} (${types.join(', ')}).`,
    fields: (t) => fields(kit(t)),
  });
  return { types, ref };
}

/** A nested struct of some details. */
export function structType<S extends object>(name: string, description: string, fields: (f: Kit<S>) => FieldMap) {
  return builder.objectRef<S>(name).implement({ description, fields: (t) => fields(kit(t)) });
}
