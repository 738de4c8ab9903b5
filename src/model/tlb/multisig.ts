/**
 * Multisig v2 order actions (ton-blockchain/multisig-contract-v2, `multisig.tlb`); only the opcodes are read
 * here, the order's reader takes anything else for a message to send:
 *   send_message#f1381e5b mode:uint8 message:^MessageRelaxed = Action;
 *   update_multisig_param#1d0cfbd3 threshold:uint8 signers:^(Hashmap 8 MsgAddressInt)
 *     proposers:(HashmapE 8 MsgAddressInt) = Action;
 */
export const MULTISIG_OP = { sendMessage: 0xf1381e5b, updateMultisigParam: 0x1d0cfbd3 } as const;
