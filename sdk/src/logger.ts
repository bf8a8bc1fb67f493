/** Where the SDK reports what it does: any object with these methods (console by default). */
export interface Logger {
  debug?(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

const PREFIX = "[quartermaster tool host]";
const line = (message: string, fields?: Record<string, unknown>) =>
  fields && Object.keys(fields).length ? `${PREFIX} ${message} ${JSON.stringify(fields)}` : `${PREFIX} ${message}`;

export const consoleLogger: Logger = {
  info: (message, fields) => console.info(line(message, fields)),
  warn: (message, fields) => console.warn(line(message, fields)),
  error: (message, fields) => console.error(line(message, fields)),
};

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
