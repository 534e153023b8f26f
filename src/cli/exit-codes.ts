// Exit codes fixed by the CLI contract; scripts depend on these numbers.
export const ExitCode = {
  ok: 0,
  serviceError: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  taskFailed: 5,
  taskCancelled: 6,
  waitTimedOut: 7,
  network: 8,
  interrupted: 130,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];
