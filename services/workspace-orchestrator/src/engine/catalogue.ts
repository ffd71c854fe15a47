import { readFileSync } from 'node:fs';
import { workspaceUnavailableError } from '@exam/domain/service-status';
import { CatalogueSchema, type Catalogue, type CatalogueEntry } from '@exam/domain/workspace';

/** infra/workspaces/catalogue.json, validated. */
export function loadCatalogue(path: string): Catalogue {
  return CatalogueSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
}

/**
 * Resolves a workspace type to its catalogue entry. `overrides` ('vscode=test,…') lets a deployment
 * or a test serve a type from another entry, e.g. the small test image.
 */
export function createEntryResolver(catalogue: Catalogue, overrides: string) {
  const map = new Map(
    overrides
      .split(',')
      .map((pair) => pair.trim().split('='))
      .filter((pair): pair is [string, string] => pair.length === 2 && Boolean(pair[0]) && Boolean(pair[1])),
  );
  const named = (name: string): CatalogueEntry | undefined =>
    catalogue.extra[name] ?? (catalogue.types as Record<string, CatalogueEntry | undefined>)[name];
  return (workspaceType: string): CatalogueEntry => {
    const entry = named(map.get(workspaceType) ?? workspaceType);
    if (!entry)
      throw workspaceUnavailableError({
        kind: 'not-configured',
        detail: `no image is configured for the '${workspaceType}' workspace type`,
      });
    return entry;
  };
}
export type EntryResolver = ReturnType<typeof createEntryResolver>;
