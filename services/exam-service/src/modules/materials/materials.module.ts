import type { AppModule } from '../../module-context.ts';
import { createMaterialsRepository, type MaterialsRepository } from './materials.repository.ts';
import { materialsRoutes } from './materials.routes.ts';
import { createMaterialsService } from './materials.service.ts';

declare module '../../module-context.ts' {
  interface Provided {
    /** Course materials: exams, the candidate view, preview and the internal API read them. */
    materialsRepository: MaterialsRepository;
  }
}

/** Course materials a creator uploads for the assistant. */
export const materialsModule: AppModule = async (app, { config, deps, isolated, provide }) => {
  const materialsRepository = createMaterialsRepository(deps.database);
  provide('materialsRepository', materialsRepository);
  await app.register(
    materialsRoutes(
      createMaterialsService(
        materialsRepository,
        deps,
        {
          maxTextChars: config.MATERIAL_MAX_TEXT_CHARS,
          maxDecompressedBytes: config.MATERIAL_MAX_DECOMPRESSED_BYTES,
        },
        isolated,
      ),
      { maxBytes: config.MATERIAL_MAX_BYTES },
    ),
  );
};
