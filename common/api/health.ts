import { Type } from 'typebox';

/** GET /api/health: 200 only while the database answers. */
export const HealthOk = Type.Object({ ok: Type.Literal(true) });
export const HealthDown = Type.Object({ ok: Type.Literal(false) });
