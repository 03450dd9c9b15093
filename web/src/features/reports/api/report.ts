import type { ReportAnswer, ReportBody } from '../../../../../common/api/reports';
import { api } from '../../../lib/api';
import { useAction } from '../../../hooks/useAction';

/** POST /api/user/report-message: one report per user and message (a second answers 409). */
export const reportMessage = (body: ReportBody): Promise<ReportAnswer> =>
  api<ReportAnswer>('/api/user/report-message', { body });

export const useReportMessage = () => useAction(reportMessage);
