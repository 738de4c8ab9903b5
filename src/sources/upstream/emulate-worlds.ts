/**
 * Emulation worlds over the upstream: the state at one masterchain block of the upstream network, read through
 * an account loader (engine/account-loader.ts) pinned to that block. Each account the cascade touches costs the
 * loader's calls once (getAddressInformation, and getTransactions for its last transaction); the block header
 * and the config once per block; the libraries an account's code or data refers to once per batch of new
 * hashes. Loaders are kept per masterchain seqno, the most recently used few (LRU), each bounded in bytes, so a
 * second emulation at the same block asks the upstream for no account again.
 *
 * Without a seqno the world is the upstream's latest block (one getMasterchainInfo per emulation) and runs at
 * the wall clock, as the next message on the network would; an older block runs at its own time. PREVBLOCKS
 * (c7 parameter 13) is not read from the upstream: contracts that look at it see none.
 */
import { beginCell, Dictionary, type Address, type Cell } from '@ton/core';
import { EmulateError, type EmulationWorld, type EmulationWorlds } from '../../api/emulate.js';
import type { V2Api } from '../../api/v2.js';
import { AccountLoader, DEFAULT_ACCOUNT_LOADER_BYTES, type AccountLoaderStats } from '../../engine/account-loader.js';

/** masterchain blocks whose loaders are kept at once */
export const DEFAULT_EMULATE_BLOCKS = 4;

export interface UpstreamWorldsOptions {
  /** loaders (masterchain blocks) kept at once; default 4 */
  maxBlocks?: number;
  /** bytes of loaded accounts and libraries kept over all blocks; default 64 MiB (each block gets its share) */
  maxBytes?: number;
}

export interface UpstreamWorlds extends EmulationWorlds {
  /** the upstream calls the kept loaders made, summed, and their cache hits */
  stats(): AccountLoaderStats & { blocks: number; masterchainInfo: number };
}

/** One block's world: its loader, header and config, and the library cells found so far. */
class UpstreamWorld {
  private readonly libraries = new Map<string, Cell>();
  private libsCell: Cell | null = null;

  constructor(
    readonly loader: AccountLoader,
    readonly header: Awaited<ReturnType<AccountLoader['block']>>,
    readonly config: string,
  ) {}

  view(latest: boolean): EmulationWorld {
    const self = this;
    return {
      mcSeqno: this.header.seqno,
      key: `upstream:${this.header.seqno}:${this.header.rootHash.toString('hex')}`,
      utime: latest ? Math.max(this.header.genUtime, Math.floor(Date.now() / 1000)) : this.header.genUtime,
      lt: this.header.endLt,
      config: this.config,
      // read at each transaction: the libraries of every account loaded before it
      get libs(): Cell | null {
        return self.libsCell;
      },
      account: (address: Address) => this.account(address),
    };
  }

  private async account(address: Address) {
    const loaded = await this.loader.account(address);
    if (loaded.status === 'nonexist') return null;
    const st = loaded.shardAccount.account?.storage.state;
    if (st?.type === 'active') {
      const roots = [st.state.code, st.state.data].filter((c): c is Cell => c !== undefined);
      const { found } = await this.loader.libraries(roots);
      let added = false;
      for (const [h, lib] of found) {
        if (this.libraries.has(h)) continue;
        this.libraries.set(h, lib);
        added = true;
      }
      if (added) this.libsCell = librariesCell(this.libraries);
    }
    return loaded.shardAccount;
  }
}

/** The public libraries dictionary (hash -> library cell) the executor takes. */
function librariesCell(libs: Map<string, Cell>): Cell {
  const dict = Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
  for (const [h, lib] of libs) dict.set(BigInt('0x' + h), lib);
  return beginCell().storeDictDirect(dict).endCell();
}

export function upstreamWorlds(v2: V2Api, opts: UpstreamWorldsOptions = {}): UpstreamWorlds {
  const maxBlocks = Math.max(1, opts.maxBlocks ?? DEFAULT_EMULATE_BLOCKS);
  const perBlockBytes = Math.floor((opts.maxBytes ?? DEFAULT_ACCOUNT_LOADER_BYTES) / maxBlocks);
  /** by seqno, in use order; a block that failed to open is dropped so the next emulation asks again */
  const kept = new Map<number, { loader: AccountLoader; world: Promise<UpstreamWorld> }>();
  let masterchainInfo = 0;
  let lastConfig: { hash: string; boc: string } | undefined;

  const open = async (loader: AccountLoader): Promise<UpstreamWorld> => {
    let header;
    try {
      header = await loader.block();
    } catch (e) {
      throw new EmulateError(500, `failed to fetch mc block ${loader.seqno}: ${(e as Error).message}`);
    }
    const config = await loader.config();
    // the config rarely changes between blocks: its BoC is serialised once per distinct config
    const hash = config.hash().toString('hex');
    if (lastConfig?.hash !== hash) lastConfig = { hash, boc: config.toBoc().toString('base64') };
    return new UpstreamWorld(loader, header, lastConfig.boc);
  };

  const worldAt = (seqno: number): Promise<UpstreamWorld> => {
    let entry = kept.get(seqno);
    if (entry) kept.delete(seqno);
    else {
      const loader = new AccountLoader(v2, seqno, { maxBytes: perBlockBytes });
      const made = { loader, world: open(loader) };
      made.world.catch(() => {
        if (kept.get(seqno) === made) kept.delete(seqno);
      });
      entry = made;
    }
    kept.set(seqno, entry);
    while (kept.size > maxBlocks) kept.delete(kept.keys().next().value!);
    return entry.world;
  };

  return {
    async at(mcSeqno?: number): Promise<EmulationWorld> {
      masterchainInfo++;
      const last = (await v2.getMasterchainInfo()).last.seqno;
      if (mcSeqno !== undefined && mcSeqno > last) throw new EmulateError(500, 'mc block seqno is too new');
      if (mcSeqno !== undefined && mcSeqno < 1) throw new EmulateError(500, `failed to fetch mc block ${mcSeqno}: not found`);
      const seqno = mcSeqno ?? last;
      return (await worldAt(seqno)).view(seqno === last);
    },

    stats() {
      const calls: AccountLoaderStats['calls'] = { getAddressInformation: 0, getTransactions: 0, getConfigAll: 0, getBlockHeader: 0, getLibraries: 0 };
      let hits = 0;
      for (const { loader } of kept.values()) {
        hits += loader.stats.hits;
        for (const k of Object.keys(calls) as (keyof typeof calls)[]) calls[k] += loader.stats.calls[k];
      }
      return { calls, hits, blocks: kept.size, masterchainInfo };
    },
  };
}
