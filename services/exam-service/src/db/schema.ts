import type { Section } from '@exam/domain/sections';
import type { Passage } from '@exam/domain/passages';
import type { ReviewWindow } from '@exam/domain/practice';
import type { AccessMode, KeepGrade, Pool } from '@exam/domain/cohort';
import type { AiSettingsInput } from '@exam/domain/exam-ai';
import type { CodingWorkspace, QuestionDisplay, ReleasePolicy } from '@exam/domain/exam';
import type { Question, Rubric } from '@exam/domain/question';
import type { RosterAdmission } from '@exam/domain/roster';
import type { UnansweredPolicy } from '@exam/domain/unanswered';
import type { AuditAction, SharedRole } from '@exam/domain/roles';
import {
  boolean,
  doublePrecision,
  customType,
  index,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** Everything exam-service owns lives in its own PostgreSQL schema. */
export const examServiceSchema = pgSchema('exam_service');

export const users = examServiceSchema.table(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    /** Null for an account created by single sign-on, which has no password until one is set by a reset. */
    passwordHash: text('password_hash'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_idx').on(t.email)],
);

/**
 * Organizations (issue 38): every creator belongs to exactly one (organization_members.user_id is unique). Migration
 * 0017 gave each existing creator an organization of their own, of which they are the admin; a new account gets one
 * the same way unless it joins through an invitation or its organization's single sign-on.
 */
export const organizations = examServiceSchema.table('organizations', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /** When false, members sign in only through the organization's identity provider (organization_sso). */
  passwordSignIn: boolean('password_sign_in').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

export type OrganizationRole = 'admin' | 'member';

export const organizationMembers = examServiceSchema.table(
  'organization_members',
  {
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<OrganizationRole>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.userId] }),
    uniqueIndex('organization_members_user_idx').on(t.userId),
  ],
);

/** Invitations to join an organization, for e-mails with no account yet or an account in no other organization. */
export const organizationInvites = examServiceSchema.table(
  'organization_invites',
  {
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Normalised (lower-case, trimmed). */
    email: text('email').notNull(),
    role: text('role').$type<OrganizationRole>().notNull(),
    invitedBy: text('invited_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.email] }), index('organization_invites_email_idx').on(t.email)],
);

/**
 * An organization's OpenID Connect provider (authorization code with PKCE). The client secret, when the provider
 * requires one, is AES-256-GCM ciphertext (@exam/server-kit/crypto). `emailDomains` route a sign-in by the e-mail's
 * domain to this provider.
 */
export const organizationSso = examServiceSchema.table('organization_sso', {
  organizationId: text('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  issuer: text('issuer').notNull(),
  clientId: text('client_id').notNull(),
  encryptedClientSecret: text('encrypted_client_secret'),
  emailDomains: jsonb('email_domains').$type<string[]>().notNull().default([]),
  enabled: boolean('enabled').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/** A creator account linked to an identity provider's subject (sign-in by `sub`, whatever the e-mail becomes). */
export const userIdentities = examServiceSchema.table(
  'user_identities',
  {
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.subject] }), index('user_identities_user_idx').on(t.userId)],
);

/**
 * A single sign-on in flight: the state, PKCE verifier and nonce between the redirect to the provider and its
 * callback, kept in the database so any replica can finish it; spent once, expires in minutes.
 */
export const oidcLoginStates = examServiceSchema.table(
  'oidc_login_states',
  {
    stateHash: text('state_hash').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    codeVerifier: text('code_verifier').notNull(),
    nonce: text('nonce').notNull(),
    returnTo: text('return_to'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('oidc_login_states_expires_idx').on(t.expiresAt)],
);

/**
 * The one-time ticket a finished single sign-on hands to the creator app in the URL fragment (never a token in a URL,
 * as LTI launches do): only its hash is kept; exchanged once for a creator session, expires in a minute or two.
 */
export const ssoSignInTickets = examServiceSchema.table(
  'sso_sign_in_tickets',
  {
    ticketHash: text('ticket_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sso_sign_in_tickets_expires_idx').on(t.expiresAt)],
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

/**
 * Failed sign-ins per client address and account. Once an address is past its failure limit it is refused only on
 * the accounts it has failed on (this table), so a shared campus or office address never locks out a colleague's
 * correct password (modules/auth/auth.service.ts, login).
 */
export const loginAddressAccountFailures = examServiceSchema.table(
  'login_address_account_failures',
  {
    address: text('address').notNull(),
    email: text('email').notNull(),
    failures: integer('failures').notNull(),
    windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.address, t.email] }),
    index('login_address_account_failures_email_idx').on(t.email),
    index('login_address_account_failures_window_idx').on(t.windowStartedAt),
  ],
);

/**
 * Sign-in attempts per account (the normalised email, whether or not a user has it), so a guesser who
 * rotates addresses is slowed too. Every attempt that reaches the password check is counted when it
 * starts and a success deletes the row; past the free failures each attempt waits a doubling delay
 * after the previous one.
 */
export const loginAccountAttempts = examServiceSchema.table(
  'login_account_attempts',
  {
    email: text('email').primaryKey(),
    attempts: integer('attempts').notNull(),
    windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('login_account_attempts_window_idx').on(t.windowStartedAt)],
);

/**
 * Creator sign-in sessions. Every creator token names one (`sid`); every service accepts the token only
 * while its row is open, so signing out, a password change and "sign out everywhere" take effect at once.
 */
export const creatorSessions = examServiceSchema.table(
  'creator_sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('creator_sessions_user_idx').on(t.userId)],
);

/** Password-reset links: only a hash of the token is kept; a link works once, until it expires. */
export const passwordResetTokens = examServiceSchema.table(
  'password_reset_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('password_reset_tokens_user_idx').on(t.userId)],
);

/** Reset requests per key (`account:<email>` or `address:<ip>`) in the current window, shared by replicas. */
export const passwordResetRequests = examServiceSchema.table('password_reset_requests', {
  key: text('key').primaryKey(),
  requests: integer('requests').notNull(),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
});

/** aiSettings as stored: the key lives in its own encrypted column, never in the json. */
export type StoredAiSettings = Omit<AiSettingsInput, 'apiKey'>;

export const exams = examServiceSchema.table(
  'exams',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull(),
    header: text('header').notNull(),
    rules: text('rules').notNull(),
    timerEnabled: boolean('timer_enabled').notNull(),
    timerMinutes: integer('timer_minutes').notNull(),
    fullScreenEnabled: boolean('full_screen_enabled').notNull(),
    questionDisplay: text('question_display').$type<QuestionDisplay>().notNull().default('all'),
    questions: jsonb('questions').$type<Question[]>().notNull(),
    /** Marking schemes the exam's questions refer to by id. */
    rubrics: jsonb('rubrics').$type<Rubric[]>().notNull().default([]),
    releasePolicy: text('release_policy').$type<ReleasePolicy>().notNull().default('on-release'),
    showAnswerKeys: boolean('show_answer_keys').notNull().default(false),
    /** What an unanswered question scores (@exam/domain/unanswered); existing exams read 'zero'. */
    unansweredPolicy: text('unanswered_policy').$type<UnansweredPolicy>().notNull().default('zero'),
    codingWorkspace: jsonb('coding_workspace').$type<CodingWorkspace>().notNull(),
    // Cohorts (packages/domain/src/cohort.ts).
    opensAt: timestamp('opens_at', { withTimezone: true }),
    closesAt: timestamp('closes_at', { withTimezone: true }),
    attemptsAllowed: integer('attempts_allowed').notNull().default(1),
    keepGrade: text('keep_grade').$type<KeepGrade>().notNull().default('highest'),
    shuffleQuestions: boolean('shuffle_questions').notNull().default(false),
    shuffleOptions: boolean('shuffle_options').notNull().default(false),
    access: text('access').$type<AccessMode>().notNull().default('link'),
    /** scrypt hash of the access code (modules/auth/password.ts); the code itself is never stored. */
    accessCodeHash: text('access_code_hash'),
    /**
     * How a roster exam admits candidates (@exam/domain/roster RosterAdmission). Null until chosen: the exam then
     * admits by candidate ID, and the first invitations sent set it to 'invitation-link' (roster.service.ts says why).
     */
    rosterAdmission: text('roster_admission').$type<RosterAdmission>(),
    pools: jsonb('pools').$type<Pool[]>().notNull().default([]),
    /** Ordered sections with their assistant rule and time limit (@exam/domain/sections). */
    sections: jsonb('sections').$type<Section[]>().notNull().default([]),
    /** Shared passages the questions refer to (@exam/domain/passages). */
    passages: jsonb('passages').$type<Passage[]>().notNull().default([]),
    /** A practice exam: unlimited attempts, answers checked as the candidate goes, never counted (@exam/domain/practice). */
    practice: boolean('practice').notNull().default(false),
    /** The review window after release (@exam/domain/practice). */
    review: jsonb('review')
      .$type<ReviewWindow>()
      .notNull()
      .default({ enabled: false, closesAt: null, showFeedback: true }),
    /** Coding answers at least this similar are flagged on the insights page (@exam/domain/similarity). */
    similarityThreshold: doublePrecision('similarity_threshold').notNull().default(0.8),
    /** Days after which candidates' data is deleted by the retention job; null keeps it (@exam/domain/internal). */
    retentionDays: integer('retention_days'),
    aiSettings: jsonb('ai_settings').$type<StoredAiSettings>().notNull(),
    /** AES-256-GCM ciphertext of the creator's provider key (@exam/server-kit/crypto). */
    encryptedApiKey: text('encrypted_api_key'),
    apiKeyLast4: text('api_key_last4'),
    isLive: boolean('is_live').notNull(),
    isDraft: boolean('is_draft').notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastEditedAt: timestamp('last_edited_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('exams_owner_created_idx').on(t.ownerId, t.createdAt)],
);

/** The creators an exam is shared with, in a role (@exam/domain/roles); the owner is exams.owner_id, never a row here. */
export const examMembers = examServiceSchema.table(
  'exam_members',
  {
    examId: text('exam_id')
      .notNull()
      .references(() => exams.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<SharedRole>().notNull(),
    /** A grader may release results (roles.ts). */
    mayRelease: boolean('may_release').notNull().default(false),
    addedBy: text('added_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.examId, t.userId] }), index('exam_members_user_idx').on(t.userId)],
);

/** An exam shared with an e-mail that has no account yet: it becomes an exam_members row when that account is made. */
export const examMemberInvites = examServiceSchema.table(
  'exam_member_invites',
  {
    examId: text('exam_id')
      .notNull()
      .references(() => exams.id, { onDelete: 'cascade' }),
    /** Normalised (lower-case, trimmed). */
    email: text('email').notNull(),
    role: text('role').$type<SharedRole>().notNull(),
    mayRelease: boolean('may_release').notNull().default(false),
    invitedBy: text('invited_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.examId, t.email] }), index('exam_member_invites_email_idx').on(t.email)],
);

/**
 * exam-service's half of an exam's audit log (@exam/domain/roles AuditEvent); results-service keeps the other half.
 * No foreign key: the log outlives the exam's deletion, which it records.
 */
export const auditEvents = examServiceSchema.table(
  'audit_events',
  {
    id: text('id').primaryKey(),
    examId: text('exam_id').notNull(),
    actorId: text('actor_id'),
    actorEmail: text('actor_email'),
    action: text('action').$type<AuditAction>().notNull(),
    subject: text('subject'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('audit_events_exam_at_idx').on(t.examId, t.at)],
);

/**
 * Candidates' data erased on request or by the retention job (issue 38): the record that it happened, with each
 * service's outcome, and never the erased data itself (the candidate ID is kept as its normalised key's SHA-256).
 */
export const dataErasures = examServiceSchema.table(
  'data_erasures',
  {
    id: text('id').primaryKey(),
    examId: text('exam_id').notNull(),
    /** SHA-256 of the normalised candidate key; null for a retention purge of many attempts. */
    candidateKeyHash: text('candidate_key_hash'),
    reason: text('reason').$type<'request' | 'retention'>().notNull(),
    requestedBy: text('requested_by'),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** Per service: { status: 'done' | 'failed', deleted: { table: rows }, error? }. */
    services: jsonb('services').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index('data_erasures_exam_idx').on(t.examId, t.requestedAt)],
);

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

export const courseMaterials = examServiceSchema.table(
  'course_materials',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    mimeType: text('mime_type').notNull(),
    size: integer('size').notNull(),
    /** Text extracted on upload; the assistant reads this, never the original bytes. */
    text: text('text').notNull(),
    textLength: integer('text_length').notNull(),
    content: bytea('content').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('course_materials_owner_idx').on(t.ownerId, t.createdAt)],
);

/** A creator's question bank (docs/product.md#question-bank); exams hold copies, never references. */
export const bankQuestions = examServiceSchema.table(
  'bank_questions',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    question: jsonb('question').$type<Question>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('bank_questions_owner_updated_idx').on(t.ownerId, t.updatedAt)],
);

export const MAIL_KINDS = [
  'password-reset',
  'invitation',
  'reminder',
  'result-release',
  'exam-shared',
  'organization-invite',
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];
export type MailStatus = 'pending' | 'sent' | 'failed';

/**
 * Outgoing mail, queued so a creator's action never waits for (or fails with) an SMTP server. The sender
 * job (jobs/mail-sender.ts) claims due rows with FOR UPDATE SKIP LOCKED, so replicas never send one twice;
 * a claim moves next_attempt_at past a lease, so a row whose sender died is picked up again.
 */
export const mailQueue = examServiceSchema.table(
  'mail_queue',
  {
    id: text('id').primaryKey(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    kind: text('kind').$type<MailKind>().notNull(),
    /** The exam and candidate (normalised candidate key) the mail is about, so their data can be erased; null for account mail. */
    examId: text('exam_id'),
    candidateKey: text('candidate_key'),
    status: text('status').$type<MailStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('mail_queue_due_idx').on(t.status, t.nextAttemptAt),
    index('mail_queue_exam_candidate_idx').on(t.examId, t.candidateKey),
  ],
);

/**
 * An exam's roster: who may start a roster-only exam, and who gets invitations, reminders and release
 * notices. The candidate ID is compared normalised (candidate_key, @exam/domain/attempt-binding).
 */
export const rosterEntries = examServiceSchema.table(
  'roster_entries',
  {
    id: text('id').primaryKey(),
    examId: text('exam_id')
      .notNull()
      .references(() => exams.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    candidateId: text('candidate_id').notNull(),
    candidateKey: text('candidate_key').notNull(),
    email: text('email'),
    /** SHA-256 of the personal invitation token; the token itself is only in the mail. */
    inviteTokenHash: text('invite_token_hash'),
    invitedAt: timestamp('invited_at', { withTimezone: true }),
    remindedAt: timestamp('reminded_at', { withTimezone: true }),
    releaseNotifiedAt: timestamp('release_notified_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('roster_entries_exam_candidate_idx').on(t.examId, t.candidateKey),
    uniqueIndex('roster_entries_invite_idx').on(t.inviteTokenHash),
  ],
);

/*
 * LTI 1.3 (1EdTech LTI Core 1.3, Deep Linking 2.0, Assignment and Grade Services 2.0). ARCHITECTURE.md "LTI" has
 * the flows; every piece of a login or launch in flight is a row here, so any replica can finish what another began.
 */

/** One LMS registration (a platform's issuer and the client id it gave this tool), owned by the creator who added it. */
export const ltiPlatforms = examServiceSchema.table(
  'lti_platforms',
  {
    id: text('id').primaryKey(),
    creatorId: text('creator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    issuer: text('issuer').notNull(),
    clientId: text('client_id').notNull(),
    /** The platform's OIDC authorization endpoint (LTI Core 1.3 §5.1.1.2). */
    authLoginUrl: text('auth_login_url').notNull(),
    /** The platform's OAuth 2 token endpoint (1EdTech Security Framework §4.1), for AGS and NRPS calls. */
    authTokenUrl: text('auth_token_url').notNull(),
    jwksUrl: text('jwks_url').notNull(),
    deploymentIds: jsonb('deployment_ids').$type<string[]>().notNull(),
    /**
     * The origin of authTokenUrl (`new URL(…).origin`). A client ID at one token endpoint is one tenant's trust in
     * this tool, so it is registered once (ARCHITECTURE.md "LTI"). Null only for a registration that shared both
     * with an earlier one when the rule came in: such a registration is suspended until its owner corrects it.
     */
    tokenOrigin: text('token_origin'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('lti_platforms_issuer_client_idx').on(t.issuer, t.clientId),
    uniqueIndex('lti_platforms_client_token_origin_idx').on(t.clientId, t.tokenOrigin),
    index('lti_platforms_creator_idx').on(t.creatorId, t.createdAt),
  ],
);

/**
 * The tool's own RSA key pairs, one signing key per registration: a registration's newest key not retired signs its
 * messages; the JWKS publishes every key not retired longer ago than the grace period, so a platform that cached the
 * old set still verifies recent messages.
 */
export const ltiToolKeys = examServiceSchema.table(
  'lti_tool_keys',
  {
    kid: text('kid').primaryKey(),
    /** The registration the key signs for; null for the shared key of before per-registration keys (retired). */
    platformId: text('platform_id').references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
    /** The public half as a JWK (kty, n, e, kid, alg, use). */
    publicJwk: jsonb('public_jwk').$type<Record<string, unknown>>().notNull(),
    /** AES-256-GCM ciphertext (@exam/server-kit/crypto) of the private key in PKCS#8 PEM. */
    encryptedPrivateKey: text('encrypted_private_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    retiredAt: timestamp('retired_at', { withTimezone: true }),
  },
  (t) => [
    index('lti_tool_keys_created_idx').on(t.createdAt),
    index('lti_tool_keys_platform_idx').on(t.platformId, t.createdAt),
  ],
);

/** A login started by the platform (LTI Core 1.3 §5.1.1): consumed once, with DELETE … RETURNING, at the launch. */
export const ltiLoginStates = examServiceSchema.table(
  'lti_login_states',
  {
    state: text('state').primaryKey(),
    nonce: text('nonce').notNull(),
    platformId: text('platform_id')
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
    targetLinkUri: text('target_link_uri').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('lti_login_states_expires_idx').on(t.expiresAt)],
);

/** Nonces of id_tokens already accepted, kept until the token could no longer be valid (never accepted twice). */
export const ltiUsedNonces = examServiceSchema.table(
  'lti_used_nonces',
  {
    platformId: text('platform_id')
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
    nonce: text('nonce').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.platformId, t.nonce] }), index('lti_used_nonces_expires_idx').on(t.expiresAt)],
);

/**
 * A resource link in the LMS (a placement in a course) and the exam it opens. Created at its first launch; the
 * Assignment and Grade Services endpoint (line item) and the Names and Role service URL are refreshed from
 * every launch's claims.
 */
export const ltiLinks = examServiceSchema.table(
  'lti_links',
  {
    id: text('id').primaryKey(),
    platformId: text('platform_id')
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
    deploymentId: text('deployment_id').notNull(),
    /** The course (context claim id); null when the launch carried no context. */
    contextId: text('context_id'),
    resourceLinkId: text('resource_link_id').notNull(),
    title: text('title'),
    examId: text('exam_id')
      .notNull()
      .references(() => exams.id, { onDelete: 'cascade' }),
    /** AGS endpoint claim: the line item of this link, and the container of the context's line items. */
    lineItemUrl: text('line_item_url'),
    lineItemsUrl: text('line_items_url'),
    agsScopes: jsonb('ags_scopes').$type<string[]>().notNull().default([]),
    /** NRPS claim: the course's memberships (Names and Role Provisioning Services 2.0 §3.6.1). */
    contextMembershipsUrl: text('context_memberships_url'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('lti_links_resource_idx').on(t.platformId, t.deploymentId, t.resourceLinkId),
    index('lti_links_exam_idx').on(t.examId),
  ],
);

/** An LMS user (platform + `sub`) linked to the creator account they act as when they launch as an instructor. */
export const ltiAccounts = examServiceSchema.table(
  'lti_accounts',
  {
    platformId: text('platform_id')
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
    sub: text('sub').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.platformId, t.sub] }), index('lti_accounts_user_idx').on(t.userId)],
);

/**
 * A validated instructor launch carried across the redirect into the creator app: only the SHA-256 of the
 * ticket is stored, it lives for minutes, and it is spent once (the deep-linking picker spends it when it answers).
 */
export const ltiLaunchTickets = examServiceSchema.table(
  'lti_launch_tickets',
  {
    ticketHash: text('ticket_hash').primaryKey(),
    platformId: text('platform_id')
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
    /** The launch as validated (message type, sub, the exam or the deep-linking settings). */
    launch: jsonb('launch').$type<Record<string, unknown>>().notNull(),
    /** Set once the ticket opened a creator session; a second sign-in with it is refused. */
    redeemedAt: timestamp('redeemed_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('lti_launch_tickets_expires_idx').on(t.expiresAt)],
);
