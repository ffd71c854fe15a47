import { index, integer, pgSchema, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** Everything exam-service owns lives in its own PostgreSQL schema. */
export const examServiceSchema = pgSchema('exam_service');

export const users = examServiceSchema.table(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_idx').on(t.email)],
);

/** Failed sign-ins per client address, kept in the database so every replica sees the same count. */
export const loginFailures = examServiceSchema.table(
  'login_failures',
  {
    address: text('address').primaryKey(),
    failures: integer('failures').notNull(),
    windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('login_failures_window_idx').on(t.windowStartedAt)],
);
