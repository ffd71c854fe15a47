import { createModuleRegistry } from '@exam/server-kit/module-registry';
import type { FastifyInstance } from 'fastify';
import type { IsolatedRunner } from '@exam/server-kit/isolated-worker';
import type { MailQueue } from './adapters/mail/mail-queue.service.ts';
import type { Config } from './config.ts';
import type { Deps } from './deps.ts';

/**
 * What a module hands to the modules above it in the module order (eslint.config.js moduleOrder). Each module
 * declares its own part next to its code (`declare module '../../module-context.ts'`), as Fastify's decorators do,
 * so adding a module never edits this file.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging in each module
export interface Provided {}

/** What every module registers from: config, the outside world, the services app.ts shares, and the lower modules' parts. */
export type ModuleContext = {
  config: Config;
  deps: Deps;
  /** The outgoing mail queue (adapters/mail), shared by auth's password reset and the roster's notices. */
  mailQueue: MailQueue;
  /** Worker threads with heap and time limits for uploaded files (ARCHITECTURE.md "Reading uploaded files"). */
  isolated: IsolatedRunner;
  provide<K extends keyof Provided>(key: K, value: Provided[K]): void;
  /** A lower module's part; throws when the module that provides it has not been registered yet. */
  use<K extends keyof Provided>(key: K): Provided[K];
};

/** One feature module: creates its repositories and services and registers its routes. */
export type AppModule = (app: FastifyInstance, ctx: ModuleContext) => Promise<void>;

/** The provide/use half of the context, created before the app so the app's own hooks can read it at request time. */
export function createProvided(): Pick<ModuleContext, 'provide' | 'use'> {
  return createModuleRegistry<Provided>();
}
