import { ItemDetailsList } from '../../../../common/api/items';
import { Message } from '../../../../common/api/shared';
import type { App, AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { presentItem } from './items.presenter';
import { itemDetails } from './items.service';

/** The catalogue as a signed-in user sees it: what exists, what is on sale, what they own (docs/product.md#items). */
export async function itemRoutes(app: App, ctx: AppContext): Promise<void> {
  app.get(
    '/api/items/details',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Every letter and emoji: its market prices and how many the user owns',
        operationId: 'listItems',
        tags: ['items'],
        response: { 200: ItemDetailsList, 401: Message },
      },
    },
    async (req) => (await itemDetails(ctx, requireUser(req).id)).map((d) => presentItem(d.item, d.market, d.user)),
  );
}
