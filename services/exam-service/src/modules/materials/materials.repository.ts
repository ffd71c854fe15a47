import { and, asc, eq, inArray } from 'drizzle-orm';
import type { CourseMaterial } from '@exam/domain/exam-ai';
import type { ExamDatabase } from '../../db/database.ts';
import { courseMaterials } from '../../db/schema.ts';

export type NewMaterialRow = typeof courseMaterials.$inferInsert;

const metadataColumns = {
  id: courseMaterials.id,
  name: courseMaterials.name,
  size: courseMaterials.size,
  mimeType: courseMaterials.mimeType,
  textLength: courseMaterials.textLength,
};

/** Keeps the caller's order (the exam's courseMaterialIds) and drops ids that no longer exist. */
function inOrder<T extends { id: string }>(ids: string[], rows: T[]): T[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export function createMaterialsRepository({ db }: ExamDatabase) {
  return {
    async insertMany(rows: NewMaterialRow[]): Promise<CourseMaterial[]> {
      if (rows.length === 0) return [];
      return db.insert(courseMaterials).values(rows).returning(metadataColumns);
    },
    async listOwned(ownerId: string): Promise<CourseMaterial[]> {
      return db
        .select(metadataColumns)
        .from(courseMaterials)
        .where(eq(courseMaterials.ownerId, ownerId))
        .orderBy(asc(courseMaterials.createdAt));
    },
    /** Metadata of the owner's materials among ids, in the order of ids. */
    async findMetadata(ownerId: string, ids: string[]): Promise<CourseMaterial[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .select(metadataColumns)
        .from(courseMaterials)
        .where(and(eq(courseMaterials.ownerId, ownerId), inArray(courseMaterials.id, ids)));
      return inOrder(ids, rows);
    },
    /** Names and extracted text, for the assistant's prompt (internal route only). */
    async findTexts(ownerId: string, ids: string[]): Promise<{ id: string; name: string; text: string }[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .select({ id: courseMaterials.id, name: courseMaterials.name, text: courseMaterials.text })
        .from(courseMaterials)
        .where(and(eq(courseMaterials.ownerId, ownerId), inArray(courseMaterials.id, ids)));
      return inOrder(ids, rows);
    },
    async deleteOwned(ownerId: string, id: string): Promise<boolean> {
      const rows = await db
        .delete(courseMaterials)
        .where(and(eq(courseMaterials.id, id), eq(courseMaterials.ownerId, ownerId)))
        .returning({ id: courseMaterials.id });
      return rows.length > 0;
    },
  };
}
export type MaterialsRepository = ReturnType<typeof createMaterialsRepository>;
