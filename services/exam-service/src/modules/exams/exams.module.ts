import type { AppModule } from '../../module-context.ts';
import { createAuditLog, type AuditLog } from './audit-log.repository.ts';
import { createExamAccess, type ExamAccessCheck } from './exam-access.ts';
import { createExamsRepository, type ExamsRepository } from './exams.repository.ts';
import { examsRoutes } from './exams.routes.ts';
import { createExamsService, type ExamsService } from './exams.service.ts';

declare module '../../module-context.ts' {
  interface Provided {
    examsService: ExamsService;
    examsRepository: ExamsRepository;
    /** The one role check of a creator's access to an exam (exam-access.ts). */
    examAccess: ExamAccessCheck;
    /** exam-service's half of each exam's audit log. */
    auditLog: AuditLog;
  }
}

/** Exams a creator writes, publishes and owns, or is given a role on (@exam/domain/roles). */
export const examsModule: AppModule = async (app, { config, deps, provide, use }) => {
  const examsRepository = createExamsRepository(deps.database);
  const auditLog = createAuditLog(deps.database, deps, app.log);
  const examsService = createExamsService(examsRepository, use('materialsRepository'), auditLog, deps, {
    encryptionKey: config.encryptionKey,
    scryptCost: config.SCRYPT_COST,
    log: app.log,
  });
  provide('examsService', examsService);
  provide('examsRepository', examsRepository);
  provide('examAccess', createExamAccess(examsRepository));
  provide('auditLog', auditLog);
  await app.register(examsRoutes(examsService));
};
