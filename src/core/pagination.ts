import { Type } from 'typebox';

/** Query properties page and per_page, with the default and the maximum of the endpoint family. */
export function paginationQuery(defaultPerPage: number, maxPerPage: number) {
  return {
    page: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: 'Page number, from 1.' }),
    ),
    per_page: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: maxPerPage,
        default: defaultPerPage,
        description: `Page size, 1 to ${maxPerPage}; default ${defaultPerPage}.`,
      }),
    ),
  };
}

export const PageMetaSchema = Type.Object(
  {
    current_page: Type.Integer(),
    last_page: Type.Integer(),
    per_page: Type.Integer(),
    total: Type.Integer(),
  },
  { title: 'PageMeta' },
);

export interface PageMeta {
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
}

export function pageMeta(total: number, page: number, perPage: number): PageMeta {
  return { current_page: page, last_page: Math.max(1, Math.ceil(total / perPage)), per_page: perPage, total };
}

export function pageOffset(page: number, perPage: number): number {
  return (page - 1) * perPage;
}
