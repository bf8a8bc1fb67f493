/**
 * Words that name the same thing in the requests agents make of Tools, each group counted as
 * its first word. Deliberately small and general (ordinary English synonyms for what Tools
 * do and act on), not tuned to one catalog: a group here makes two Tools that use its words
 * read alike, to operators and to find_tools, as they would to a model. Words that only
 * overlap in some senses ("find" and "search", "record" and "save") stay apart.
 */
export const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  // Verbs: what a Tool does.
  ["create", "make", "generate"],
  ["delete", "remove", "erase", "destroy", "purge"],
  ["save", "store", "persist", "stash"],
  ["get", "fetch", "retrieve", "read", "load"],
  ["remember", "memorize", "memorise"],
  ["change", "modify", "alter", "edit", "update"],
  ["switch", "select", "choose"],
  ["configure", "setup", "set"],
  ["list", "enumerate", "browse"],
  ["accept", "approve", "confirm"],
  ["reject", "decline", "deny", "refuse", "dismiss"],
  ["merge", "combine", "consolidate", "dedupe"],
  ["archive", "retire", "shelve"],
  ["pin", "bookmark"],
  ["rename", "retitle"],
  ["start", "begin", "commence"],
  ["run", "execute", "invoke"],
  ["finish", "end", "complete", "wrap"],
  ["summary", "summarize", "summarise", "recap"],
  ["handoff", "handover", "delegate", "transfer"],
  ["learn", "lesson", "insight", "takeaway"],
  ["decide", "decision"],
  ["supersede", "replace", "outdated", "obsolete"],
  ["truncate", "snippet", "excerpt", "partial"],
  // Nouns: what a Tool acts on.
  ["tool", "function", "capability", "integration", "endpoint"],
  ["scope", "namespace", "workspace"],
  ["proposal", "suggestion", "recommendation"],
  ["thread", "topic"],
  ["content", "body", "text"],
  ["id", "identifier"],
  ["context", "background"],
  ["pending", "outstanding", "unresolved"],
  ["recent", "latest", "newest"],
  ["previous", "earlier", "prior", "past"],
  ["timeline", "chronological", "chronology", "history"],
  ["period", "range", "span", "window"],
  ["teammate", "colleague", "successor", "peer", "coworker"],
  ["mistake", "error", "bug", "fault"],
  ["task", "job", "ticket"],
  ["session", "shift"],
];
