import type { Prisma, PrismaClient } from "../generated/prisma/client";

/** A client or an open transaction: domain helpers that only write take either. */
export type Tx = Prisma.TransactionClient | PrismaClient;
export type { Prisma };
