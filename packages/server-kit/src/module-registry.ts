/**
 * What a service's modules hand up the module order (eslint.config.js moduleOrder): a lower module provides a
 * part under a key, a higher one uses it. `P` is the service's `Provided` interface, which each module extends by
 * declaration merging next to its own code, so adding a module never edits a shared file.
 */
export type ModuleRegistry<P> = {
  provide<K extends keyof P>(key: K, value: P[K]): void;
  /** A lower module's part; throws when the module that provides it has not been registered yet. */
  use<K extends keyof P>(key: K): P[K];
};

export function createModuleRegistry<P>(): ModuleRegistry<P> {
  const values = new Map<keyof P, unknown>();
  return {
    provide(key, value) {
      if (values.has(key)) throw new Error(`module context: ${String(key)} is provided twice`);
      values.set(key, value);
    },
    use(key) {
      if (!values.has(key)) {
        throw new Error(`module context: ${String(key)} is not provided yet; register its module earlier in app.ts`);
      }
      return values.get(key) as P[typeof key];
    },
  };
}
