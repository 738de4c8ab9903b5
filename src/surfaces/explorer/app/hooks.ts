/** Query state for a page: data, partial-data errors, a failure, and a way to run it again. */
import { useCallback, useEffect, useState } from 'preact/hooks';
import { ExplorerError, query } from './gql.js';

export interface QueryState<T> {
  data: T | null;
  errors: ExplorerError[];
  error: ExplorerError | null;
  loading: boolean;
  reload: () => void;
}

export function useQuery<T>(document: string, variables: Record<string, unknown>): QueryState<T> {
  const key = JSON.stringify(variables);
  const [state, setState] = useState<Omit<QueryState<T>, 'reload'>>({ data: null, errors: [], error: null, loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    query<T>(document, variables).then(
      (r) => live && setState({ data: r.data, errors: r.errors, error: null, loading: false }),
      (e: unknown) =>
        live && setState({ data: null, errors: [], error: e instanceof ExplorerError ? e : new ExplorerError(String(e), 'ERROR'), loading: false }),
    );
    return () => {
      live = false;
    };
    // the variables are compared by value
  }, [document, key, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}
