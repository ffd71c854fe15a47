import { and, desc, eq, isNotNull } from 'drizzle-orm';
import type { ExamDatabase } from '../../db/database.ts';
import { ltiLinks, ltiPlatforms } from '../../db/schema.ts';

/** Reads of the LTI links and registrations the Advantage services (AGS scores, NRPS rosters) call through. */
export function createAdvantageRepository({ db }: ExamDatabase) {
  return {
    platform: (id: string) =>
      db
        .select()
        .from(ltiPlatforms)
        .where(eq(ltiPlatforms.id, id))
        .then((rows) => rows[0]),

    /** Whether a launch through this platform gave the tool this line item (scores go nowhere else). */
    async isKnownLineItem(platformId: string, lineItemUrl: string): Promise<boolean> {
      const rows = await db
        .select({ id: ltiLinks.id })
        .from(ltiLinks)
        .where(and(eq(ltiLinks.platformId, platformId), eq(ltiLinks.lineItemUrl, lineItemUrl)))
        .limit(1);
      return rows.length > 0;
    },

    /**
     * The exam's placements in LMS courses that offer the NRPS service, through registrations of the exam's
     * owner only, newest first.
     */
    membershipSources(examId: string, creatorId: string) {
      return db
        .select({
          platformId: ltiPlatforms.id,
          platformName: ltiPlatforms.name,
          clientId: ltiPlatforms.clientId,
          issuer: ltiPlatforms.issuer,
          authLoginUrl: ltiPlatforms.authLoginUrl,
          authTokenUrl: ltiPlatforms.authTokenUrl,
          jwksUrl: ltiPlatforms.jwksUrl,
          tokenOrigin: ltiPlatforms.tokenOrigin,
          contextId: ltiLinks.contextId,
          title: ltiLinks.title,
          membershipsUrl: ltiLinks.contextMembershipsUrl,
        })
        .from(ltiLinks)
        .innerJoin(ltiPlatforms, eq(ltiPlatforms.id, ltiLinks.platformId))
        .where(
          and(
            eq(ltiLinks.examId, examId),
            eq(ltiPlatforms.creatorId, creatorId),
            isNotNull(ltiLinks.contextMembershipsUrl),
          ),
        )
        .orderBy(desc(ltiLinks.updatedAt));
    },
  };
}
export type AdvantageRepository = ReturnType<typeof createAdvantageRepository>;
