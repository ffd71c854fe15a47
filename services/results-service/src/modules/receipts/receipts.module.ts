import type { AppModule } from '../../module-context.ts';
import { createReceiptKeysRepository } from './receipt-keys.repository.ts';
import { createReceiptSigner } from './receipt-signer.ts';
import { createReceiptsRepository } from './receipts.repository.ts';
import { receiptsRoutes } from './receipts.routes.ts';
import { createReceiptsService } from './receipts.service.ts';

/** Candidates' signed process receipts and their verification. */
export const receiptsModule: AppModule = async (app, { deps, use }) => {
  const { processOf } = use('processRecords');
  const signer = createReceiptSigner(createReceiptKeysRepository(deps.database));
  await app.register(
    receiptsRoutes(createReceiptsService(createReceiptsRepository(deps.database), signer, (id) => processOf(id), deps)),
  );
};
