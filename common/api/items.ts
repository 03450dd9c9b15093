import { Type, type Static } from 'typebox';
import { Nullable } from './shared';

/** A user's standing offer on one item (the market issue fills these). */
export const OwnOffer = Type.Object({ price: Type.Integer(), quantity: Type.Integer(), since: Type.String() });

/** GET /api/items/details: every item of the catalogue, with its market and what the caller has of it. */
export const ItemDetails = Type.Object({
  itemType: Type.String(),
  emoji: Type.String(),
  name: Type.String(),
  rarity: Type.Integer({ minimum: 1, maximum: 5 }),
  market: Type.Object({
    /** Units on sale. */
    quantity: Type.Integer(),
    /** Best sell offer price, cents. */
    bestSo: Nullable(Type.Integer()),
    /** Best buy offer price, cents. */
    bestBo: Nullable(Type.Integer()),
  }),
  user: Type.Object({
    /** Units owned, those held by the user's sell offer included. */
    quantity: Type.Integer(),
    sellOffer: Nullable(OwnOffer),
    buyOffer: Nullable(OwnOffer),
  }),
});
export type ItemDetails = Static<typeof ItemDetails>;
export const ItemDetailsList = Type.Array(ItemDetails);
