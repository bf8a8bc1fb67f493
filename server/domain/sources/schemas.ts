/** A Source's input schemas: in universal/, because the console validates its forms by the same ones. */
export * from "@/universal/source-schemas";
