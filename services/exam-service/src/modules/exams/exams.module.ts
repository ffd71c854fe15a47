import type { AppModule } from '../../module-context.ts';
import { createExamsRepository, type ExamsRepository } from './exams.repository.ts';
import { examsRoutes } from './exams.routes.ts';
import { createExamsService, type ExamsService } from './exams.service.ts';

declare module '../../module-context.ts' {
  interface Provided {
    examsService: ExamsService;
    examsRepository: ExamsRepository;
  }
}

/** Exams a creator writes, publishes and owns. */
export const examsModule: AppModule = async (app, { config, deps, provide, use }) => {
  const examsRepository = createExamsRepository(deps.database);
  const examsService = createExamsService(examsRepository, use('materialsRepository'), deps, {
    encryptionKey: config.encryptionKey,
    scryptCost: config.SCRYPT_COST,
    log: app.log,
  });
  provide('examsService', examsService);
  provide('examsRepository', examsRepository);
  await app.register(examsRoutes(examsService));
};
