/**
 * npm run qm -- create-admin --email E [--password P] [--name N]
 *
 * Without --password it asks for one (hidden). With the embedded database, stop the
 * server first: the data folder can be open in one process at a time.
 */
import { createInterface } from "node:readline";
import { Writable } from "node:stream";
import { parseArgs } from "node:util";
import { closeDatabase } from "@/server/db";
import { prepareDatabase } from "@/server/domain/system/bootstrap";
import { ensureAdmin } from "@/server/domain/users/users";
import { isDomainError } from "@/server/errors";

const USAGE = `Usage:
  npm run qm -- create-admin --email you@example.com [--password …] [--name "Your Name"]`;

async function askHidden(question: string): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) process.stdout.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: process.stdin.isTTY });
  process.stdout.write(question);
  muted = true;
  const answer = await new Promise<string>((resolve) => rl.question("", resolve));
  rl.close();
  process.stdout.write("\n");
  return answer;
}

async function createAdmin(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { email: { type: "string" }, password: { type: "string" }, name: { type: "string" } },
  });
  if (!values.email) {
    console.error(`--email is required.\n${USAGE}`);
    return 2;
  }
  let password = values.password;
  if (!password) {
    password = await askHidden("Password (at least 12 characters): ");
    const again = await askHidden("Repeat it: ");
    if (password !== again) {
      console.error("The passwords differ; nothing was changed.");
      return 1;
    }
  }
  await prepareDatabase();
  const { created } = await ensureAdmin({ email: values.email, password, name: values.name });
  console.log(
    created ? `Created admin ${values.email}.` : `${values.email} is now an enabled admin with the given password.`,
  );
  return 0;
}

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  if (command === "create-admin") return createAdmin(rest);
  console.error(USAGE);
  return 2;
}

main()
  .catch((error: unknown) => {
    console.error(isDomainError(error) || error instanceof Error ? error.message : error);
    return 1;
  })
  .then(async (code) => {
    await closeDatabase().catch(() => {});
    process.exit(code);
  });
