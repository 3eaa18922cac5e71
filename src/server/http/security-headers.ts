// Helmet's security headers, worked out once at start: the policy never varies by request, and
// @fastify/helmet built its middleware anew for every request (a tenth of a kept answer's time).
// HSTS and `upgrade-insecure-requests` go only on answers to requests that came over https: sent
// over plain http they turn a phone on the LAN into a blank page (every script rewritten to https).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** One year, the longest HSTS age browsers keep; only ever sent over https. */
export const HSTS = 'max-age=31536000; includeSubDomains';

/** Whether the request reached us over https: a TLS socket, or a trusted proxy's X-Forwarded-Proto. */
export const overHttps = (request: FastifyRequest) => request.protocol === 'https';

/**
 * Sets the headers on every answer from one onRequest hook. Pass options without HSTS and
 * `upgrade-insecure-requests`: both are added here for https requests (`request.protocol`
 * believes X-Forwarded-Proto only from trusted proxies).
 */
export function securityHeaders(app: FastifyInstance, options: HelmetOptions) {
  const plain: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number) => void (plain[name.toLowerCase()] = String(value)),
    removeHeader: () => {},
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  const policy = plain['content-security-policy'];
  const secure: Record<string, string> = {
    ...plain,
    ...(policy !== undefined && !policy.includes('upgrade-insecure-requests')
      ? { 'content-security-policy': `${policy};upgrade-insecure-requests` }
      : {}),
    'strict-transport-security': HSTS,
  };
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(overHttps(request) ? secure : plain);
    done();
  });
}
