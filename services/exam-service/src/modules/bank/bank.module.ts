import type { AppModule } from '../../module-context.ts';
import { createBankRepository } from './bank.repository.ts';
import { bankRoutes } from './bank.routes.ts';
import { createBankService } from './bank.service.ts';

/** A creator's question bank. */
export const bankModule: AppModule = async (app, { deps, use }) => {
  await app.register(bankRoutes(createBankService(createBankRepository(deps.database), use('examsService'), deps)));
};
