/**
 * A readiness check's failure whose message /ready shows beside the check's name, for reasons an operator
 * needs at once ("pending migrations: 0007_x"). Any other error is reported by the check's name alone, since
 * driver errors can carry addresses or user names.
 */
export class NotReadyError extends Error {}
