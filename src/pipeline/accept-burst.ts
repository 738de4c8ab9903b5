/**
 * Connection storms. Since libuv 1.45 (Node 20) a listening socket accepts one connection per event-loop turn,
 * and a turn of a loaded gateway reads and answers every ready keep-alive socket first (tens of ms under 200
 * connections). 200 clients connecting at once then wait in the kernel's accept queue for up to 200 turns:
 * seconds, before a single byte of theirs is read (the 1-5 s tail of `npm run loadtest`).
 *
 * So while connections keep arriving, reads on the connections already open are held: each turn is then little
 * more than one accept, and the queue drains in milliseconds; connections accepted meanwhile wait with them.
 * A hold lasts at most HOLD_MS and is followed by at least COOLDOWN_MS of normal service, so a steady stream of
 * new connections cannot starve open ones. Node restarts a socket's reads by itself (a finished response
 * resumes it), so a held handle's readStart/readStop only record what Node asked for until the release.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export const HOLD_MS = 50;
export const COOLDOWN_MS = 50;

/** The libuv stream under a socket: reads stopped and restarted directly, as net.Socket itself does. */
type ReadHandle = { reading?: boolean; readStop(): number; readStart(): number };
const handleOf = (s: Socket) => (s as unknown as { _handle?: ReadHandle | null })._handle ?? undefined;

export interface AcceptBurstStats {
  /** holds begun since the server started */
  holds: number;
  /** whether reads are held right now */
  holding: boolean;
}

export function drainAcceptQueueFirst(server: Server): AcceptBurstStats {
  const open = new Set<Socket>();
  const held = new Map<Socket, { handle: ReadHandle; wanted: boolean }>();
  const stats: AcceptBurstStats = { holds: 0, holding: false };
  let holdStarted = 0;
  let releasedAt = -Infinity;
  let acceptedThisTurn = false;

  const release = () => {
    for (const [s, h] of held) {
      // the prototype's methods again; reading resumes if Node last asked for it
      const wanted = h.wanted;
      delete (h.handle as Partial<ReadHandle>).readStart;
      delete (h.handle as Partial<ReadHandle>).readStop;
      if (wanted && !s.destroyed) {
        h.handle.reading = true;
        h.handle.readStart();
      }
    }
    held.clear();
    stats.holding = false;
    releasedAt = performance.now();
  };

  // runs once per turn while holding: another accept this turn means the queue may still hold more
  const checkTurn = () => {
    if (acceptedThisTurn && performance.now() - holdStarted < HOLD_MS) {
      acceptedThisTurn = false;
      setImmediate(checkTurn);
    } else {
      release();
    }
  };

  const hold = (s: Socket) => {
    const handle = handleOf(s);
    // a socket whose reads are already stopped (backpressure, an upgrade) is left as it is
    if (!handle || !handle.reading) return;
    handle.readStop();
    handle.reading = false;
    // Node restarts reads on its own (a response finished, a stream resumed): until the release those calls only
    // record what Node wants
    const h = { handle, wanted: true };
    handle.readStart = () => ((h.wanted = true), 0);
    handle.readStop = () => ((h.wanted = false), 0);
    held.set(s, h);
  };

  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      held.delete(socket);
    });
    acceptedThisTurn = true;
    // a connection arriving during a hold waits with the others, so a turn stays one accept long
    if (stats.holding) return hold(socket);
    if (open.size < 2 || performance.now() - releasedAt < COOLDOWN_MS) return;
    stats.holding = true;
    stats.holds++;
    holdStarted = performance.now();
    for (const s of open) if (s !== socket) hold(s);
    // the first check falls in this same turn, where this accept counts: it waits for the next
    setImmediate(checkTurn);
  });
  return stats;
}
