-- The MCP revision each Source last spoke, shown in the console and used by calls to connect
ALTER TABLE "source" ADD COLUMN     "protocolVersion" TEXT;
