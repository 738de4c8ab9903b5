/** Details of the basic action types: TON transfers, contract calls and deploys, tick-tock (v3.md §4.4 "Basic types"). */
import type { CallContractDetails, TonTransferDetails } from '../../../../api/v3/action-details.js';
import { builder } from '../../builder.js';
import { detailsType } from './kit.js';

const ExtraCurrencyAmountRef = builder.objectRef<{ id: string; amount: string }>('ActionExtraCurrency').implement({
  description: 'An extra currency and its amount, one entry of a v3 `{id: amount}` map.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'the currency id (decimal)' }),
    amount: t.field({ type: 'BigInt', resolve: (c) => c.amount }),
  }),
});

const entries = (m: Record<string, string> | null | undefined) => (m ? Object.entries(m).map(([id, amount]) => ({ id, amount })) : null);

const extraCurrencies = (d: TonTransferDetails | CallContractDetails) =>
  entries('value_extra_currencies' in d ? d.value_extra_currencies : 'extra_currencies' in d ? d.extra_currencies : null);

export const BASIC_DETAILS = [
  detailsType('TonTransferDetails', ['ton_transfer'], 'Toncoin sent from one account to another', (f) => ({
    source: f.account('source', (a) => a.details.source),
    destination: f.account('destination', (a) => a.details.destination),
    value: f.bigint('value', (a) => a.details.value, 'nanotons'),
    extraCurrencies: f.objects('value_extra_currencies', ExtraCurrencyAmountRef, (a) => entries(a.details.value_extra_currencies)),
    comment: f.string('comment', (a) => a.details.comment),
    encrypted: f.boolean('encrypted', (a) => a.details.encrypted),
  })),
  detailsType('ContractCallDetails', ['call_contract', 'contract_deploy'], 'A message to a contract (deploying it, for contract_deploy)', (f) => ({
    opcode: f.string('opcode', (a) => a.details.opcode, '0x-hex'),
    source: f.account('source', (a) => a.details.source),
    destination: f.account('destination', (a) => a.details.destination),
    value: f.bigint('value', (a) => a.details.value, 'nanotons'),
    extraCurrencies: f.objects('extra_currencies', ExtraCurrencyAmountRef, (a) => ('extra_currencies' in a.details ? entries(a.details.extra_currencies) : null), 'call_contract only'),
  })),
  detailsType(
    'ExtraCurrencyTransferDetails',
    ['extra_currency_transfer'],
    'A ton_transfer or call_contract that carries extra currencies; the API renames the type and keeps the details',
    (f) => ({
      source: f.account('source', (a) => a.details.source),
      destination: f.account('destination', (a) => a.details.destination),
      value: f.bigint('value', (a) => a.details.value, 'nanotons'),
      extraCurrencies: f.objects('value_extra_currencies', ExtraCurrencyAmountRef, (a) => extraCurrencies(a.details), '`extra_currencies` for a call'),
      comment: f.string('comment', (a) => ('comment' in a.details ? a.details.comment : null), 'transfers only'),
      encrypted: f.boolean('encrypted', (a) => ('encrypted' in a.details ? a.details.encrypted : null), 'transfers only'),
      opcode: f.string('opcode', (a) => ('opcode' in a.details ? a.details.opcode : null), 'calls only'),
    }),
  ),
  detailsType('TickTockDetails', ['tick_tock'], 'A special tick-tock transaction', (f) => ({
    account: f.account('account', (a) => a.details.account, 'declared by the reference but never set'),
  })),
];
