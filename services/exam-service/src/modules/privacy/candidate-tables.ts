import type { CandidateTables } from '@exam/server-kit/candidate-data';

/**
 * Where exam-service keeps a candidate's data (server-kit candidate-data.ts). Candidates have no account here: what
 * it holds of one is the roster entry and the mail about them. Every table of src/db/schema.ts is here;
 * privacy.test.ts fails for one that is not.
 */
export const EXAM_CANDIDATE_TABLES: CandidateTables = {
  mail_queue: { by: 'candidate', examColumn: 'exam_id', keyColumn: 'candidate_key' },
  roster_entries: {
    by: 'candidate',
    examColumn: 'exam_id',
    keyColumn: 'candidate_key',
    omitFromExport: ['invite_token_hash'],
  },
  audit_events: { by: 'subject', column: 'subject', examColumn: 'exam_id' },
  data_erasures: { by: 'none', reason: "the record of erasures: the candidate key's SHA-256 only" },
  users: { by: 'none', reason: 'creator accounts' },
  organizations: { by: 'none', reason: "creators' organizations" },
  organization_members: { by: 'none', reason: 'creators in organizations' },
  organization_invites: { by: 'none', reason: 'invitations of creators' },
  organization_sso: { by: 'none', reason: "an organization's sign-in provider" },
  user_identities: { by: 'none', reason: "creators' sign-in identities" },
  oidc_login_states: { by: 'none', reason: "creators' sign-ins in flight" },
  sso_sign_in_tickets: { by: 'none', reason: "creators' single sign-on tickets" },
  login_failures: { by: 'none', reason: 'creator sign-in throttling' },
  login_address_account_failures: { by: 'none', reason: 'creator sign-in throttling' },
  login_account_attempts: { by: 'none', reason: 'creator sign-in throttling' },
  creator_sessions: { by: 'none', reason: "creators' sessions" },
  password_reset_tokens: { by: 'none', reason: "creators' reset links" },
  password_reset_requests: { by: 'none', reason: "creators' reset requests" },
  exams: { by: 'none', reason: 'the exams themselves' },
  exam_members: { by: 'none', reason: 'creators an exam is shared with' },
  exam_member_invites: { by: 'none', reason: 'creators invited to an exam' },
  course_materials: { by: 'none', reason: "creators' materials" },
  bank_questions: { by: 'none', reason: "creators' question banks" },
  lti_platforms: { by: 'none', reason: 'registered LMSs' },
  lti_tool_keys: { by: 'none', reason: "the tool's keys" },
  lti_login_states: { by: 'none', reason: 'LTI logins in flight, gone within minutes (pruned when expired)' },
  lti_used_nonces: { by: 'none', reason: 'spent nonces, pruned when expired' },
  lti_links: { by: 'none', reason: "an LMS course's link to an exam" },
  lti_accounts: { by: 'none', reason: "instructors' LMS accounts linked to creators" },
  lti_launch_tickets: { by: 'none', reason: "instructors' launch tickets, pruned when expired" },
};
