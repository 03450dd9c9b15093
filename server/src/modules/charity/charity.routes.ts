import {
  ApproveBody,
  DecisionAnswer,
  DonationLink,
  DonationLinks,
  DonationLinksQuery,
  RejectBody,
  SendLinkBody,
  StringList,
  UserDonationsParams,
} from '../../../../common/api/charity';
import { charityLinkProblem, CHARITY_LINK_TEXT } from '../../../../common/charity';
import { FieldErrors, Message } from '../../../../common/api/shared';
import type { App, AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { fieldError } from '../../http/errors';
import { sendIdempotent } from '../../http/idempotency';
import { approveLink, rejectLink, sendLink } from './charity.commands';
import { charityPolicy, siteOf } from './charity.policy';
import { presentLink } from './charity.presenter';
import { adminLinks, myLinks, optionList, parsePage, publicLinks } from './charity.service';
import type { OptionKind } from './charity.repository';

const tags = ['charity'];
const adminTags = ['admin'];

/**
 * The send's 400 in words a user can act on (docs/product.md#charity: the first errorText is shown), rather than the validator's
 * 'must match pattern': the rule's own words (common/charity.ts), as the popup says them. The schema still documents
 * the rule in OpenAPI.
 */
function sendErrorText(body: unknown): string {
  const link = typeof body === 'object' && body !== null ? (body as { link?: unknown }).link : undefined;
  if (typeof link !== 'string') return CHARITY_LINK_TEXT.empty;
  return charityLinkProblem(link) ?? CHARITY_LINK_TEXT.shape;
}

/**
 * Donation links (docs/product.md#charity): sending and the two lists, on charity tenants only;
 * the administrators' decisions, lists and dropdown options under /api/admin/.
 */
export async function charityRoutes(app: App, ctx: AppContext): Promise<void> {
  app.post(
    '/api/charity-link/send',
    {
      config: { auth: charityPolicy.atEdge('send', siteOf) },
      attachValidation: true,
      schema: {
        summary: 'Send the link of a donation, to be credited once an admin approves it',
        operationId: 'sendDonationLink',
        tags,
        body: SendLinkBody,
        response: { 200: DonationLink, 400: FieldErrors, 401: Message, 403: Message },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      if (req.validationError) throw fieldError('link', sendErrorText(req.body));
      return sendIdempotent(ctx, req, reply, user.id, async (work) =>
        presentLink(await sendLink(work, user.id, req.body.link, ctx.now()), 'owner'),
      );
    },
  );

  app.get(
    '/api/charity-link/my-links',
    {
      config: { auth: charityPolicy.atEdge('readOwn', siteOf) },
      schema: {
        summary: "The signed-in user's donation links and their decisions",
        operationId: 'listMyDonationLinks',
        tags,
        querystring: DonationLinksQuery,
        response: { 200: DonationLinks, 400: FieldErrors, 401: Message, 403: Message },
      },
    },
    async (req) => {
      const user = requireUser(req);
      return (await myLinks(ctx, user.id, parsePage(req.query))).map((r) => presentLink(r, 'owner'));
    },
  );

  app.get(
    '/api/charity-link/public',
    {
      config: { auth: charityPolicy.atEdge('readPublic', siteOf) },
      schema: {
        summary: 'Every decided donation link (public)',
        operationId: 'listPublicDonationLinks',
        tags,
        querystring: DonationLinksQuery,
        response: { 200: DonationLinks, 400: FieldErrors, 403: Message },
      },
    },
    async (req) => {
      return (await publicLinks(ctx, parsePage(req.query))).map((r) => presentLink(r, 'public'));
    },
  );

  // Administrators: 401 to visitors, 403 to everyone else, checked before the input is validated (the 'admin'
  // rule, http/authorization.ts; admin.policy.test.ts walks every /api/admin/ route).
  app.get(
    '/api/admin/user-donations/:userId',
    {
      config: { auth: 'admin' },
      schema: {
        summary: "One user's donation links (admin)",
        operationId: 'listUserDonations',
        tags: adminTags,
        params: UserDonationsParams,
        querystring: DonationLinksQuery,
        response: { 200: DonationLinks, 400: FieldErrors, 401: Message, 403: Message },
      },
    },
    async (req) => {
      const found = await adminLinks(ctx, parsePage(req.query), Number(req.params.userId));
      return found.map((r) => presentLink(r, 'admin'));
    },
  );

  app.get(
    '/api/admin/all-links',
    {
      config: { auth: 'admin' },
      schema: {
        summary: 'Every donation link, undecided first (admin)',
        operationId: 'listAllDonationLinks',
        tags: adminTags,
        querystring: DonationLinksQuery,
        response: { 200: DonationLinks, 400: FieldErrors, 401: Message, 403: Message },
      },
    },
    async (req) => {
      return (await adminLinks(ctx, parsePage(req.query))).map((r) => presentLink(r, 'admin'));
    },
  );

  const optionRoute = (url: string, kind: OptionKind, operationId: string, summary: string) =>
    app.get(
      url,
      {
        config: { auth: 'admin' },
        schema: { operationId, summary, tags: adminTags, response: { 200: StringList, 401: Message, 403: Message } },
      },
      async () => optionList(ctx, kind),
    );
  optionRoute(
    '/api/admin/charity-categories',
    'CATEGORY',
    'listCharityCategories',
    "The charity form's categories (admin)",
  );
  optionRoute('/api/admin/charityNames', 'NAME', 'listCharityNames', "The charity form's charity names (admin)");
  optionRoute(
    '/api/admin/charity-rejection-reasons',
    'REJECTION_REASON',
    'listRejectionReasons',
    "The charity form's reasons for a rejection (admin)",
  );

  const decisionResponses = {
    200: DecisionAnswer,
    400: FieldErrors,
    401: Message,
    403: Message,
    404: Message,
    409: Message,
  };

  app.post(
    '/api/admin/charity/approve',
    {
      config: { auth: 'admin' },
      schema: {
        summary: 'Approve a donation link and credit its amount (admin)',
        operationId: 'approveDonationLink',
        tags: adminTags,
        body: ApproveBody,
        response: decisionResponses,
      },
    },
    async (req, reply) => {
      const admin = requireUser(req);
      return sendIdempotent(ctx, req, reply, admin.id, async (work) =>
        presentLink(await approveLink(work, admin.id, req.body, ctx.now()), 'admin'),
      );
    },
  );

  app.post(
    '/api/admin/charity/reject',
    {
      config: { auth: 'admin' },
      schema: {
        summary: 'Reject a donation link with a reason (admin)',
        operationId: 'rejectDonationLink',
        tags: adminTags,
        body: RejectBody,
        response: decisionResponses,
      },
    },
    async (req, reply) => {
      const admin = requireUser(req);
      return sendIdempotent(ctx, req, reply, admin.id, async (work) =>
        presentLink(await rejectLink(work, admin.id, req.body, ctx.now()), 'admin'),
      );
    },
  );
}
