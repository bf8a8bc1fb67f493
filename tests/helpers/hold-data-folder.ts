/** Opens the embedded database in QM_DATA_DIR and holds it until killed (tests of the folder lock). */
import { openDatabase } from "@/server/db/open";

await openDatabase({ dataDir: process.env.QM_DATA_DIR });
process.stdout.write("held\n");
setInterval(() => {}, 60_000);
