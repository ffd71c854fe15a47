import type { AppModule } from '../../module-context.ts';
import { interchangeRoutes } from './interchange.routes.ts';
import { createInterchangeService } from './interchange.service.ts';

/** Importing and exporting exams in other platforms' formats. */
export const interchangeModule: AppModule = async (app, { config, deps, isolated, use }) => {
  const zipLimits = { maxUnzippedBytes: config.IMPORT_MAX_UNZIPPED_BYTES, maxEntries: config.IMPORT_MAX_ZIP_ENTRIES };
  await app.register(interchangeRoutes(createInterchangeService(use('examsService'), deps, { zipLimits, isolated })));
};
