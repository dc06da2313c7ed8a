/**
 * A read a stream consumer makes once per batch for each set of arguments: the first call reads,
 * the batch's other calls share its answer; a read that fails is forgotten, so the next call
 * tries again. Made anew for each batch, after the batch was fetched, so no change is judged
 * against data older than itself. `forget` makes the next call for those arguments read again.
 */
export function perBatchLoader<A extends unknown[], T>(load: (...args: A) => Promise<T>): ((...args: A) => Promise<T>) & { forget: (...args: A) => void } {
  const loads = new Map<string, Promise<T>>();
  const loader = (...args: A) => {
    const key = JSON.stringify(args);
    let loaded = loads.get(key);
    if (!loaded) {
      loaded = load(...args);
      loaded.catch(() => loads.delete(key));
      loads.set(key, loaded);
    }
    return loaded;
  };
  return Object.assign(loader, { forget: (...args: A) => void loads.delete(JSON.stringify(args)) });
}
