/** Audit identity of changes made from the command line: "via CLI", for a user when one is concerned. */
export const CLI_VIA = { kind: 'cli', id: null, label: 'CLI' } as const;

export function cliActor(userId: number | null) {
  return { userId, via: CLI_VIA };
}

export const CLI_ACTOR = cliActor(null);
