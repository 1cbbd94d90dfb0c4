// The modules that carry spec rules, each with the test files that judge it (scripts/mutation.mjs).
export const MUTATION_MODULES = {
  directions: { mutate: 'main/energy/live/directions.ts', tests: ['main/energy/live/directions.test.ts'] },
  snapshot: { mutate: 'main/energy/live/snapshot.ts', tests: ['main/energy/live/snapshot.test.ts'] },
  ledger: { mutate: 'main/energy/tariff/ledger.ts', tests: ['main/energy/tariff/tariff.test.ts', 'main/energy/tariff/ledger.test.ts'] },
  'history-query': { mutate: 'main/energy/history/query.ts', tests: ['main/energy/history/query-rules.test.ts'] },
  lockout: { mutate: 'main/energy/security/lockout.ts', tests: ['main/energy/security/lockout.test.ts'] },
  csrf: { mutate: 'main/recordings/csrf.ts', tests: ['main/recordings/csrf.test.ts'] },
  naming: { mutate: 'main/recordings/sync/naming.ts', tests: ['main/recordings/sync/naming.test.ts'] },
  classify: { mutate: 'main/recordings/sync/classify.ts', tests: ['main/recordings/sync/classify.test.ts'] },
  'box-delete': { mutate: 'main/recordings/cloud/box-delete.ts', tests: ['main/recordings/cloud/keep-reason.test.ts', 'main/recordings/cloud/delete-gate.test.ts', 'main/recordings/cloud/cloud-delete.test.ts'] },
};
