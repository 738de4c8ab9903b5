/**
 * The `ActionDetails` union: one object type per reference details struct (files by family beside this one),
 * chosen by the action's `type`. `DETAILS_BY_TYPE` is checked by the compiler to name a details type for
 * every type of `ActionDetailsByType`, so a type added to the model without a GraphQL type does not build.
 * `OtherActionDetails` is left for a type the reference adds after these models.
 */
import type { Shared } from '../../../../api/shared-answers.js';
import type { ActionType } from '../../../../api/v3/action-details.js';
import type { Action, KnownAction, LaterAction } from '../../../../api/v3/actions.js';
import { builder } from '../../builder.js';
import { BASIC_DETAILS } from './basic.js';
import { COCOON_DETAILS } from './cocoon.js';
import { COFFEE_DETAILS } from './coffee.js';
import { DEX_DETAILS } from './dex.js';
import { DNS_DETAILS } from './dns.js';
import { JETTON_DETAILS } from './jettons.js';
import { detailsType, type DetailsType } from './kit.js';
import { LAYERZERO_DETAILS } from './layerzero.js';
import { LENDING_DETAILS } from './lending.js';
import { MULTISIG_DETAILS } from './multisig.js';
import { NFT_DETAILS } from './nft.js';
import { STAKING_DETAILS } from './staking.js';
import { TGBTC_DETAILS } from './tgbtc.js';

const UNSUPPORTED = detailsType(
  'UnsupportedActionDetails',
  ['unknown', 'coffee_mev_protect_failed_swap'],
  'A type the reference classifies but prints no details for: its details are an error text',
  (f) => ({ error: f.string('error', (a) => a.details.error) }),
);

const ALL = [
  ...BASIC_DETAILS,
  ...JETTON_DETAILS,
  ...DEX_DETAILS,
  ...NFT_DETAILS,
  ...DNS_DETAILS,
  ...STAKING_DETAILS,
  ...MULTISIG_DETAILS,
  ...LENDING_DETAILS,
  ...TGBTC_DETAILS,
  ...COFFEE_DETAILS,
  ...LAYERZERO_DETAILS,
  ...COCOON_DETAILS,
  UNSUPPORTED,
];

type Covered = (typeof ALL)[number]['types'][number];
/** Fails to compile, naming the types, when a reference type has no details type. */
export const everyTypeCovered: [Exclude<ActionType, Covered>] extends [never] ? true : Exclude<ActionType, Covered> = true;

type AnyDetailsRef = (typeof ALL)[number]['ref'];
const DETAILS_BY_TYPE = new Map<string, AnyDetailsRef>(ALL.flatMap((d) => d.types.map((t) => [t, d.ref] as const)));

/** A type name of the reference models (the others are `LaterAction`s). */
export const isKnownAction = (a: Shared<Action>): a is Shared<KnownAction> => DETAILS_BY_TYPE.has(a.type);

const OtherDetailsRef = builder.objectRef<Shared<LaterAction>>('OtherActionDetails').implement({
  description: 'An action type newer than this gateway\'s models: the action\'s `detailsJson` has its details as toncenter v3 prints them.',
  fields: (t) => ({ type: t.exposeString('type') }),
});

export const ActionDetailsUnion = builder.unionType('ActionDetails', {
  description: 'The details of an action, typed by its `type` (toncenter v3 `details`).',
  types: [...ALL.map((d) => d.ref), OtherDetailsRef],
  resolveType: (a) => (isKnownAction(a) ? DETAILS_BY_TYPE.get(a.type)! : OtherDetailsRef),
});
