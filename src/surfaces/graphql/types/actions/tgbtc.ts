/** Details of tgBTC bridge actions (v3.md §4.4 "tgBTC"); the `_fallback` types share their struct. */
import { detailsType } from './kit.js';

export const TGBTC_DETAILS = [
  detailsType('TgbtcMintDetails', ['tgbtc_mint', 'tgbtc_mint_fallback'], 'tgBTC minted for a Bitcoin deposit', (f) => ({
    source: f.account('source', (a) => a.details.source),
    destination: f.account('destination', (a) => a.details.destination),
    amount: f.bigint('amount', (a) => a.details.amount),
    ...f.jetton('asset', 'asset', (a) => a.details.asset),
    bitcoinTxId: f.string('bitcoin_tx_id', (a) => a.details.bitcoin_tx_id),
    ...f.jettonWallet('destinationWallet', 'destination_wallet', (a) => a.details.destination_wallet),
  })),
  detailsType('TgbtcBurnDetails', ['tgbtc_burn', 'tgbtc_burn_fallback'], 'tgBTC burnt for a Bitcoin withdrawal', (f) => ({
    source: f.account('source', (a) => a.details.source),
    ...f.jettonWallet('sourceWallet', 'source_wallet', (a) => a.details.source_wallet),
    destination: f.account('destination', (a) => a.details.destination),
    amount: f.bigint('amount', (a) => a.details.amount),
    ...f.jetton('asset', 'asset', (a) => a.details.asset),
  })),
  detailsType('TgbtcNewKeyDetails', ['tgbtc_new_key', 'tgbtc_new_key_fallback'], 'A new tgBTC bridge key', (f) => ({
    source: f.account('source', (a) => a.details.source),
    pubkey: f.string('pubkey', (a) => a.details.pubkey),
    coordinator: f.account('coordinator', (a) => a.details.coordinator),
    pegout: f.account('pegout', (a) => a.details.pegout),
    amount: f.bigint('amount', (a) => a.details.amount),
    ...f.jetton('asset', 'asset', (a) => a.details.asset),
  })),
  detailsType('TgbtcDkgLogDetails', ['tgbtc_dkg_log_fallback'], 'A tgBTC key-generation log entry', (f) => ({
    coordinator: f.account('coordinator', (a) => a.details.coordinator),
    pubkey: f.string('pubkey', (a) => a.details.pubkey),
    timestamp: f.bigint('timestamp', (a) => a.details.timestamp),
  })),
];
