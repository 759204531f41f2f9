import { z } from 'zod';
import { ClientMessageSchema } from '../protocol/client-message.js';
import { ErrorResponseSchema } from '../protocol/rest-dto.js';
import { ServerMessageSchema } from '../protocol/server-message.js';
import { apiRoutes, type ApiRoute } from './api-routes.js';

/** The OpenAPI 3.1 document of the REST API, generated from the route table and its zod schemas. */
export function createOpenApiDocument(version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, route] of Object.entries(apiRoutes) as [string, ApiRoute][]) {
    const path = route.path.replace(/:([A-Za-z]+)/g, '{$1}');
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(name, route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'correx server',
      version,
      description:
        'Every request needs `Authorization: Bearer <token>` (the token is in $CORREX_HOME/server-token). Requests from another Origin or to another Host are refused.',
    },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: {
        Error: jsonSchema(ErrorResponseSchema, 'output'),
        ClientMessage: jsonSchema(ClientMessageSchema, 'input'),
        ServerMessage: jsonSchema(ServerMessageSchema, 'output'),
      },
    },
    security: [{ bearer: [] }],
    paths,
  };
}

function operation(name: string, route: ApiRoute): Record<string, unknown> {
  const [status, body] = route.success;
  const parameters = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((match) => ({
    name: match[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  if (route.query) {
    const schema = jsonSchema(route.query, 'input') as {
      properties?: Record<string, unknown>;
      required?: string[];
    };
    for (const [key, property] of Object.entries(schema.properties ?? {})) {
      parameters.push({
        name: key,
        in: 'query',
        required: schema.required?.includes(key) ?? false,
        schema: property as { type: string },
      });
    }
  }
  const error = {
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
  return {
    operationId: name,
    summary: route.summary,
    ...(parameters.length === 0 ? {} : { parameters }),
    ...(route.body === undefined
      ? {}
      : {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchema(route.body, 'input') } },
          },
        }),
    responses: {
      [status]: {
        description: 'success',
        ...(body === null
          ? {}
          : { content: { 'application/json': { schema: jsonSchema(body, 'output') } } }),
      },
      ...(route.refusal === undefined
        ? {}
        : {
            [route.refusal[0]]: {
              description: 'refused',
              content: {
                'application/json': { schema: jsonSchema(route.refusal[1], 'output') },
              },
            },
          }),
      '4XX': { description: 'refused', ...error },
    },
  };
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return rest;
}
