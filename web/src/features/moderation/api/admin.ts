import { queryOptions, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type { AdminReports } from '../../../../../common/api/admin';
import type {
  AdminAppeals,
  BlockedWords,
  DecideAppealBody,
  DecideReportAnswer,
  DecideReportBody,
} from '../../../../../common/api/moderation';
import { useAction } from '../../../hooks/useAction';
import { api, newActionKey } from '../../../lib/api';

/*
 * The admin console's moderation calls (docs/product.md#moderation): deciding reports and appeals, the blocked words.
 * A decision moves money (a refund) and is recorded once, so each attempt carries an Idempotency-Key of its own.
 */

/** The console's reports list (features/admin/api/admin.ts `useReports`). */
const REPORTS = ['admin', 'reports'] as const;

/** POST /api/admin/reports/decide: decides every open report of the content at once (409 when already decided). */
export const decideReport = (body: DecideReportBody, idempotencyKey: string): Promise<DecideReportAnswer> =>
  api<DecideReportAnswer>('/api/admin/reports/decide', { body, idempotencyKey });

/** Marks every listed report the decision covered as decided, then reads the list again. */
export function markDecided(client: ReturnType<typeof useQueryClient>, answer: DecideReportAnswer, at: string): void {
  const decided = new Set(answer.reports);
  client.setQueryData<InfiniteData<AdminReports>>(REPORTS, (old) =>
    old
      ? {
          ...old,
          pages: old.pages.map((page) =>
            page.map((r) =>
              decided.has(r.id) || (r.type === answer.contentType && r.messageId === answer.contentId)
                ? { ...r, decision: { decisionId: answer.decisionId, action: answer.action, decidedOn: at } }
                : r,
            ),
          ),
        }
      : old,
  );
}

export function useDecideReport() {
  const client = useQueryClient();
  return useAction(async (body: DecideReportBody) => {
    try {
      const answer = await decideReport(body, newActionKey());
      markDecided(client, answer, new Date().toISOString());
      return answer;
    } finally {
      void client.invalidateQueries({ queryKey: REPORTS });
      void client.invalidateQueries({ queryKey: appealsQuery.queryKey });
    }
  });
}

/** GET /api/admin/appeals: the appeals waiting for a decision. */
export const appealsQuery = queryOptions({
  queryKey: ['moderation', 'admin', 'appeals'] as const,
  queryFn: () => api<AdminAppeals>('/api/admin/appeals'),
  retry: false,
});
export const useAppeals = () => useQuery(appealsQuery);

/** POST /api/admin/appeals/decide: uphold or reverse; a reversal restores the content and lifts the suspension. */
export const decideAppeal = (body: DecideAppealBody, idempotencyKey: string): Promise<unknown> =>
  api<unknown>('/api/admin/appeals/decide', { body, idempotencyKey });

export function useDecideAppeal() {
  const client = useQueryClient();
  return useAction(async (body: DecideAppealBody) => {
    try {
      await decideAppeal(body, newActionKey());
      client.setQueryData<AdminAppeals>(appealsQuery.queryKey, (old) =>
        old?.filter((a) => a.decisionId !== body.decisionId),
      );
    } finally {
      void client.invalidateQueries({ queryKey: appealsQuery.queryKey });
    }
  });
}

/** GET /api/admin/blocked-words. */
export const blockedWordsQuery = queryOptions({
  queryKey: ['moderation', 'admin', 'blocked-words'] as const,
  queryFn: () => api<BlockedWords>('/api/admin/blocked-words'),
  retry: false,
});
export const useBlockedWords = () => useQuery(blockedWordsQuery);

/** PUT /api/admin/blocked-words: the whole list at once. */
export const saveBlockedWords = (body: BlockedWords): Promise<BlockedWords | undefined> =>
  api<BlockedWords | undefined>('/api/admin/blocked-words', { method: 'PUT', body });

export function useSaveBlockedWords() {
  const client = useQueryClient();
  return useAction(async (body: BlockedWords) => {
    const answer = await saveBlockedWords(body);
    client.setQueryData(blockedWordsQuery.queryKey, answer?.words ? answer : body);
  });
}
