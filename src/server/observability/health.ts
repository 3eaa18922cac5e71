// The process's readiness, as GET /readyz answers it (http/health-routes.ts): a stopping process turns not-ready first
// and keeps serving for a short drain (SHUTDOWN_DRAIN_MS), so a load balancer moves traffic away before it closes.

/** Whether this process should still be sent work. */
export interface Health {
  /** Set when the process begins to stop: /readyz answers 503 from then on. */
  stopping: boolean;
}

/** A process's readiness at start: ready (not stopping). */
export const createHealth = (): Health => ({ stopping: false });
