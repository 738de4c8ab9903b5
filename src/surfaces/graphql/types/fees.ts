/** Fee estimates as toncenter's estimateFee returns them (v2.md §4.6). Root field: estimateFee. */
import type { V2EstimatedFee, V2EstimateFeeResult } from '../wire.js';
import { builder } from '../builder.js';

const FeesRef = builder.objectRef<V2EstimatedFee>('Fees').implement({
  fields: (t) => ({
    inFwdFee: t.field({ type: 'BigInt', resolve: (f) => f.in_fwd_fee }),
    storageFee: t.field({ type: 'BigInt', resolve: (f) => f.storage_fee }),
    gasFee: t.field({ type: 'BigInt', resolve: (f) => f.gas_fee }),
    fwdFee: t.field({ type: 'BigInt', resolve: (f) => f.fwd_fee }),
  }),
});

const FeeEstimateRef = builder.objectRef<V2EstimateFeeResult>('FeeEstimate').implement({
  fields: (t) => ({
    sourceFees: t.field({ type: FeesRef, resolve: (r) => r.source_fees }),
    destinationFees: t.field({ type: [FeesRef], resolve: (r) => r.destination_fees ?? [] }),
  }),
});

builder.queryField('estimateFee', (t) =>
  t.field({
    type: FeeEstimateRef,
    nullable: true,
    description: 'Fees of an external message to `address` with `body` (and StateInit parts when deploying).',
    args: {
      address: t.arg({ type: 'Address', required: true }),
      body: t.arg({ type: 'Boc', required: true }),
      initCode: t.arg({ type: 'Boc' }),
      initData: t.arg({ type: 'Boc' }),
      ignoreChksig: t.arg.boolean({ defaultValue: true }),
    },
    resolve: (_root, args, ctx) =>
      ctx.v3.estimateFee({
        address: args.address,
        body: args.body,
        ignoreChksig: args.ignoreChksig ?? true,
        ...(args.initCode ? { initCode: args.initCode } : {}),
        ...(args.initData ? { initData: args.initData } : {}),
      }),
  }),
);
