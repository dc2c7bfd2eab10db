// Request and response schemas of the geographic endpoints (also the OpenAPI document).
import { Type } from 'typebox';
import { DOCUMENT_AS } from '../../http/openapi-document.js';
import { errorResponses, IntegerId } from '../../http/schemas.js';
import { CHILD_LEVEL_NAMES } from './keys.js';
import type { OpenApiTag } from '../../http/openapi.js';

const Name = Type.String({ description: 'Name in Persian, as in the source data.' });

export const GeoEntity = Type.Object(
  { id: Type.Integer({ description: 'Id of the entity, stable across releases of the data.' }), name: Name },
  { description: 'An active geographic entity.' },
);

export const GeoChild = Type.Object(
  {
    id: Type.Union([Type.Integer(), Type.String()], {
      description: 'Integer id; for the children of a section a string: city_<city_id> or rural_<rural_id>.',
    }),
    name: Name,
  },
  { description: 'An active child of the parent.' },
);

const NotModified = Type.Null({
  description: 'Not modified: the If-None-Match header matched the current ETag; no body.',
});

const DataList = (description: string) =>
  Type.Object(
    { data: Type.Array(GeoEntity, { description }) },
    { description: 'The active entities, by name then id.' },
  );

export const ProvincesSchema = {
  summary: 'Active provinces',
  operationId: 'listProvinces',
  description: 'Every active province of Iran, by name then id. Public; ETag and If-None-Match make a repeat free.',
  tags: ['geographic'],
  response: { 200: DataList('Active provinces.'), 304: NotModified },
};

export const ByParentParams = Type.Object({ id: IntegerId });

export function byParentSchema(operationId: string, summary: string, parent: string) {
  return {
    summary,
    operationId,
    description: `Active entities of the ${parent} with this id, by name then id. An id with no such ${parent} gives an empty list.`,
    tags: ['geographic'],
    params: ByParentParams,
    response: { 200: DataList(summary), 304: NotModified, ...errorResponses(422) },
  };
}

export const ContinentsSchema = {
  summary: 'Active continents (bare array)',
  operationId: 'listContinents',
  description: 'Every active continent of the world hierarchy, as a bare array by name then id. Public.',
  tags: ['geographic'],
  response: { 200: Type.Array(GeoEntity, { description: 'Active continents, by name then id.' }), 304: NotModified },
};

/** A pattern matching the words in any letter case, as JSON Schema patterns have no flags. */
export function anyCasePattern(words: readonly string[]): string {
  const anyCase = (word: string) =>
    [...word].map((c) => (c.toLowerCase() === c.toUpperCase() ? c : `[${c.toUpperCase()}${c.toLowerCase()}]`)).join('');
  return `^(${words.map(anyCase).join('|')})$`;
}

export const LEVEL_PATTERN = anyCasePattern(CHILD_LEVEL_NAMES);
const LEVEL_DESCRIPTION =
  'Level of the parent, any case: continent, country, province, county, section, city, region, neighborhood, street.';

export const ChildrenParams = Type.Object({
  level: Type.String({
    description: LEVEL_DESCRIPTION,
    // The route answers an unknown level with its own 422 wording; the document says it as a pattern.
    [DOCUMENT_AS]: { type: 'string', description: LEVEL_DESCRIPTION, pattern: LEVEL_PATTERN },
  }),
  parentId: Type.String({
    description: 'Id of the parent; for level city city_<id> (regions) or rural_<id> (villages of the rural).',
  }),
});

export const ChildrenSchema = {
  summary: 'Active children of a parent (bare array)',
  operationId: 'listChildren',
  description:
    "A non-numeric or unknown parent gives []. An unknown level gives 422 with errors.level. For level section the children are the district's cities and rurals with string ids.",
  tags: ['geographic'],
  params: ChildrenParams,
  response: {
    200: Type.Array(GeoChild, { description: 'Active children, by name then id.' }),
    304: NotModified,
    ...errorResponses(422),
  },
};

/** The tag of the geographic operations in the OpenAPI document. */
export const openApiTags: OpenApiTag[] = [
  {
    name: 'geographic',
    description: "Iran's divisions (provinces to villages) and the world hierarchy; public, cacheable with ETag.",
  },
];
