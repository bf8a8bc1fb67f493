-- The MCP revision each Source last spoke (shown in the console, and calls connect with it).
ALTER TABLE "source" ADD COLUMN     "protocolVersion" TEXT;
