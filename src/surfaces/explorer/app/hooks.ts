/**
 * Query state for a page: data, partial-data errors, a failure, what it cost upstream, and a way to run it again.
 *
 * A query first asks for what the gateway can answer within DEADLINE_S (Prefer: wait); when fields were left
 * for later, the page shows what came and a second request (no deadline) fills the rest, mostly from the cache
 * the first one filled. A late root field (null at the deadline) is not shown as "not found": the page waits.
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import { addCosts, ExplorerError, query, type Result, type UpstreamCost } from './gql.js';

/** Seconds the first request may take, at one upstream request per second. */
export const DEADLINE_S = 2;

export interface QueryState<T> {
  data: T | null;
  errors: ExplorerError[];
  error: ExplorerError | null;
  loading: boolean;
  /** what is shown came within the deadline; the rest is being asked for */
  filling: boolean;
  /** the upstream cost of what is shown (both requests) */
  cost: UpstreamCost | null;
  reload: () => void;
}

type State<T> = Omit<QueryState<T>, 'reload'>;

const failed = (e: unknown): ExplorerError => (e instanceof ExplorerError ? e : new ExplorerError(String(e), 'ERROR'));

/** The answer as page data: a late null root is not data yet. */
function shown<T>(r: Result<T>): T | null {
  if (!r.late || r.data === null) return r.data;
  return Object.values(r.data as Record<string, unknown>).some((v) => v === null) ? null : r.data;
}

export function useQuery<T>(document: string, variables: Record<string, unknown>): QueryState<T> {
  const key = JSON.stringify(variables);
  const [state, setState] = useState<State<T>>({ data: null, errors: [], error: null, loading: true, filling: false, cost: null });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    query<T>(document, variables, { waitS: DEADLINE_S }).then(
      (first) => {
        if (!live) return;
        const data = shown(first);
        setState({ data, errors: first.errors, error: null, loading: data === null && first.late, filling: first.late, cost: first.cost });
        if (!first.late) return;
        query<T>(document, variables).then(
          (rest) => live && setState({ data: rest.data, errors: rest.errors, error: null, loading: false, filling: false, cost: addCosts(first.cost, rest.cost) }),
          (e: unknown) => live && setState((s) => ({ ...s, error: s.data === null ? failed(e) : null, errors: s.data === null ? s.errors : [...s.errors, failed(e)], loading: false, filling: false })),
        );
      },
      (e: unknown) => live && setState({ data: null, errors: [], error: failed(e), loading: false, filling: false, cost: null }),
    );
    return () => {
      live = false;
    };
    // the variables are compared by value
  }, [document, key, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}
