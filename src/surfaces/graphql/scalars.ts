/**
 * The four chain scalars: one canonical form out, every form toncenter accepts in (v2.md §1.2, v3.md §1.2).
 * Address → raw `wc:HEX` upper-case as v3 prints it; Hash → standard base64; BigInt → decimal string;
 * Boc → base64 of a bag of cells.
 */
import { Address, Cell } from '@ton/core';
import { Kind, type ValueNode } from 'graphql';
import { parseAddressAny, rawUpper } from '../../model/address.js';
import { parseHash } from '../../model/hash.js';
import { CHAIN_SIZE_LIMITS, LimitError, checkBoc, checkBocText, MESSAGE_LIMITS } from '../../model/limits.js';
import { badInput } from './errors.js';

export function parseAddressInput(value: unknown): Address {
  if (typeof value !== 'string') throw badInput('Address must be a string (raw wc:hex or user-friendly base64)');
  const parsed = parseAddressAny(value);
  if (!parsed) throw badInput(`not an address: ${JSON.stringify(value)}`);
  return parsed.address;
}

export function serializeAddress(value: unknown): string {
  if (Address.isAddress(value)) return rawUpper(value);
  if (typeof value === 'string') {
    const parsed = parseAddressAny(value);
    if (parsed) return rawUpper(parsed.address);
  }
  throw new TypeError(`cannot serialise ${String(value)} as Address`);
}

export function parseHashInput(value: unknown): Buffer {
  if (typeof value !== 'string') throw badInput('Hash must be a string (hex, base64 or base64url)');
  const parsed = parseHash(value.startsWith('0x') ? value.slice(2) : value);
  if (!parsed) throw badInput(`not a 256-bit hash: ${JSON.stringify(value)}`);
  return parsed;
}

export function serializeHash(value: unknown): string {
  if (Buffer.isBuffer(value)) return value.toString('base64');
  if (typeof value === 'string') {
    const parsed = parseHash(value);
    if (parsed) return parsed.toString('base64');
  }
  throw new TypeError(`cannot serialise ${String(value)} as Hash`);
}

const DECIMAL = /^-?\d+$/;
const HEX = /^-?0x[0-9a-fA-F]+$/;

export function parseBigIntInput(value: unknown): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && (DECIMAL.test(value) || HEX.test(value))) {
    return value.startsWith('-') ? -BigInt(value.slice(1)) : BigInt(value);
  }
  throw badInput(`BigInt must be an integer as a decimal or 0x-hex string, or a safe integer number: ${JSON.stringify(value)}`);
}

export function serializeBigInt(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value.toString();
  if (typeof value === 'string' && DECIMAL.test(value)) return BigInt(value).toString();
  // some sources print integers as 0x-hex strings: out as decimal like every other BigInt
  if (typeof value === 'string' && HEX.test(value)) return parseBigIntInput(value).toString();
  throw new TypeError(`cannot serialise ${String(value)} as BigInt`);
}

/**
 * A Boc argument is a message or a part of one (sendMessage, estimateFee), so it is held to config param 43's
 * message limits: size before decoding, the header's cell count before any cell is built, then bits and depth.
 */
export function parseBocInput(value: unknown): Buffer {
  if (typeof value !== 'string') throw badInput('Boc must be a base64 string');
  try {
    checkBocText(value, 'Boc', CHAIN_SIZE_LIMITS);
    const buf = Buffer.from(value, 'base64');
    checkBoc(buf, 'Boc', MESSAGE_LIMITS);
    return buf;
  } catch (e) {
    if (!(e instanceof LimitError)) throw e;
    throw badInput(e.limit === 'boc' ? 'Boc is not a base64-encoded bag of cells' : e.message);
  }
}

export function serializeBoc(value: unknown): string {
  if (Buffer.isBuffer(value)) return value.toString('base64');
  if (value instanceof Cell) return value.toBoc().toString('base64');
  if (typeof value === 'string') return value;
  throw new TypeError(`cannot serialise ${String(value)} as Boc`);
}

/** Literal values in a document: strings for every scalar, integers for BigInt. */
export function literal<T>(parse: (v: unknown) => T) {
  return (node: ValueNode): T => {
    if (node.kind === Kind.STRING) return parse(node.value);
    if (node.kind === Kind.INT) return parse(Number.isSafeInteger(Number(node.value)) ? Number(node.value) : node.value);
    throw badInput(`expected a string literal, found ${node.kind}`);
  };
}
