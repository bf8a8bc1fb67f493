// Roles are browser-safe and live in universal/roles.ts; server code keeps importing them from here.
export * from "../universal/roles";
