/**
 * The Prisma client better-auth writes through, adjusted for the OAuth provider's tables:
 * the library writes `null` for an absent list or JSON value, which Prisma refuses for a
 * Json column unless it is spelled `Prisma.DbNull`. Only the OAuth models are touched.
 */

import type { Db } from "../db";
import { Prisma } from "../generated/prisma/client";

const JSON_FIELDS = new Set([
  "scopes",
  "clientCredentialsScopes",
  "contacts",
  "redirectUris",
  "postLogoutRedirectUris",
  "grantTypes",
  "responseTypes",
  "allowedScopes",
  "resources",
  "requestedUserInfoClaims",
  "metadata",
  "customClaims",
  "confirmation",
]);

function jsonNulls(data: unknown): unknown {
  if (!data || typeof data !== "object" || Array.isArray(data)) return data;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data))
    out[key] = value === null && JSON_FIELDS.has(key) ? Prisma.DbNull : value;
  return out;
}

export function forBetterAuth(db: Db) {
  return db.$extends({
    query: {
      $allModels: {
        async create({ model, args, query }) {
          if (model.startsWith("Oauth")) args.data = jsonNulls(args.data) as typeof args.data;
          return query(args);
        },
        async update({ model, args, query }) {
          if (model.startsWith("Oauth")) args.data = jsonNulls(args.data) as typeof args.data;
          return query(args);
        },
        async updateMany({ model, args, query }) {
          if (model.startsWith("Oauth")) args.data = jsonNulls(args.data) as typeof args.data;
          return query(args);
        },
      },
    },
  });
}
