/** The catalog's name for the compatibility states and labels, which the console shows too (universal/). */
export * from "@/universal/compatibility";
